package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// connector opens connections of one DB with mattn/go-sqlite3 and sets up
// each: temporary B-trees (ORDER BY, DISTINCT) live in memory, where
// SQLite's default puts each in a temporary file, a file per sorted query;
// the function homologa_in_move() tells the status guards whether a state
// machine is moving a resource; and the guards themselves are (re)made.
type connector struct {
	dsn string
	db  *DB
	drv *sqlite3.SQLiteDriver
}

func (c *connector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c *connector) Driver() driver.Driver                        { return c.drv }

func (c *connector) setUp(conn *sqlite3.SQLiteConn) error {
	if _, err := conn.Exec("PRAGMA temp_store = MEMORY", nil); err != nil {
		return err
	}
	if c.db.path == "" || c.db.path == ":memory:" {
		// A memdb file stops at 1 GiB (SQLITE_FULL); a ":memory:"
		// database, which it replaces, at the machine's memory.
		// Retention keeps a sandbox far below either.
		if err := conn.SetFileControlInt64("main", sqliteFcntlSizeLimit, 1<<40); err != nil {
			return fmt.Errorf("size limit of the in-memory database: %w", err)
		}
	}
	if err := conn.RegisterFunc("homologa_in_move", func() bool { return c.db.moving.Load() > 0 }, false); err != nil {
		return err
	}
	c.db.guardMu.Lock()
	defer c.db.guardMu.Unlock()
	for _, table := range c.db.guarded {
		if _, err := conn.Exec(guardSQL(table), nil); err != nil {
			return fmt.Errorf("status guard of %s: %w", table, err)
		}
	}
	return nil
}

// sqliteFcntlSizeLimit is SQLITE_FCNTL_SIZE_LIMIT, the largest size a
// memdb file may grow to (mattn/go-sqlite3 does not export it).
const sqliteFcntlSizeLimit = 36

// guardSQL is the trigger that refuses a change of table's status column
// made outside a state machine's move. It is a TEMP trigger: it belongs to
// the connection, not to the file, so a database file stays usable by
// tools that lack homologa_in_move.
func guardSQL(table string) string {
	return `CREATE TEMP TRIGGER IF NOT EXISTS guard_status_` + table + ` BEFORE UPDATE OF status ON main.` + table + `
		WHEN NEW.status IS NOT OLD.status AND NOT homologa_in_move()
		BEGIN SELECT RAISE(ABORT, '` + table + `.status written outside a state machine'); END`
}

//go:embed migrations/*.sql
var migrations embed.FS

// DB is the sandbox database.
//
// SQLite serialises writers anyway, so the pool holds a single connection:
// an in-memory database then stays one database, and no writer ever sees
// SQLITE_BUSY. Transactions also hold txMu until their after-commit hooks
// have run, so hooks (which publish events) run in commit order.
//
// gate hands the connection over first come, first served: database/sql
// gives a freed connection to a random waiter, so under load a request
// can wait behind dozens that came after it. A channel's blocked senders
// are served in order.
type DB struct {
	db   *sql.DB
	gate chan struct{}
	path string
	txMu sync.Mutex
	IDs  IDSource

	// moving is above zero while a state machine stores a move (Tx.Move):
	// only then may a guarded table's status change.
	moving  atomic.Int32
	guardMu sync.Mutex
	guarded []string
	ctl     txStatements // BEGIN, COMMIT, ROLLBACK (txControl)
}

// Open opens the database at path, or an in-memory one when path is "" or
// ":memory:", and applies every migration not yet applied.
func Open(ctx context.Context, path string) (*DB, error) { return OpenUpTo(ctx, path, "") }

// OpenUpTo is Open applying the migrations only up to and including the
// file last ("0014_interactions_wall.sql"; "" for all): the database an
// earlier version of the sandbox made, on which a test runs the
// migrations that came after.
func OpenUpTo(ctx context.Context, path, last string) (*DB, error) {
	return open(ctx, path, last, true)
}

// open opens the database; a new in-memory one with every migration is
// a copy of the template when useTemplate is true (the template itself is not).
func open(ctx context.Context, path, last string, useTemplate bool) (*DB, error) {
	// The statement cache keeps prepared statements on the connection:
	// preparing a statement costs about as much as running it.
	//
	// An in-memory database is a file of SQLite's memdb VFS (a private
	// one: its name has no leading slash), not ":memory:". A ":memory:"
	// database is its page cache, and SQLite's B-tree, when a split sorts
	// its new pages, renames one through the number of the lock page
	// (1 GiB / page size); the pager remembers that number as the cache's
	// highest, and the next COMMIT then walks every page of the cache to
	// drop those above the database's end, which for ":memory:" is the
	// whole database, so commits grow with the database (SQLite's
	// balance_nonroot and pcache1Truncate;
	// BenchmarkCommitAsTheDatabaseGrows). A memdb file keeps its pages
	// in one buffer behind an ordinary bounded page cache, whose walk
	// stays small.
	dsn := "file:homologa?vfs=memdb&_foreign_keys=on&_stmt_cache_size=256"
	if path != "" && path != ":memory:" {
		// WAL lets a reader (a backup, sqlite3 in a shell) look while the
		// sandbox writes; foreign keys are off by default in SQLite.
		dsn = "file:" + path + "?_journal_mode=WAL&_foreign_keys=on&_busy_timeout=5000&_synchronous=NORMAL&_stmt_cache_size=256"
	}
	db := &DB{path: path, IDs: RandomIDs{}, gate: make(chan struct{}, 1)}
	c := &connector{dsn: dsn, db: db}
	c.drv = &sqlite3.SQLiteDriver{ConnectHook: c.setUp}
	sqldb := sql.OpenDB(c)
	sqldb.SetMaxOpenConns(1)
	sqldb.SetMaxIdleConns(1)
	sqldb.SetConnMaxLifetime(0)
	db.db = sqldb
	inMemory := path == "" || path == ":memory:"
	if err := db.migrate(ctx, last, useTemplate && last == "" && inMemory); err != nil {
		sqldb.Close()
		return nil, err
	}
	if inMemory {
		if err := shrink(ctx, sqldb); err != nil {
			sqldb.Close()
			return nil, err
		}
	}
	return db, nil
}

// execer is a database or one of its connections.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// shrink lets go of the page cache of a memdb file, whose pages are in
// its buffer too: a new database's whole schema is in the cache once it
// is made, the template's again after each copy, and an idle sandbox's
// memory would hold both.
func shrink(ctx context.Context, db execer) error {
	if _, err := db.ExecContext(ctx, "PRAGMA shrink_memory"); err != nil {
		return fmt.Errorf("shrink the page cache: %w", err)
	}
	return nil
}

// GuardStatus makes every change of the status column of tables fail
// unless a state machine makes it (Tx.Move): a status written anywhere
// else is a bug, and every test that reaches it fails.
func (db *DB) GuardStatus(ctx context.Context, tables ...string) error {
	db.guardMu.Lock()
	for _, t := range tables {
		if !slices.Contains(db.guarded, t) {
			db.guarded = append(db.guarded, t)
		}
	}
	db.guardMu.Unlock()
	return db.Tx(ctx, func(tx *Tx) error {
		for _, t := range tables {
			if _, err := tx.ExecContext(ctx, guardSQL(t)); err != nil {
				return fmt.Errorf("status guard of %s: %w", t, err)
			}
		}
		return nil
	})
}

// Close closes the database.
func (db *DB) Close() error {
	db.gate <- struct{}{} // no transaction is using the statements
	db.ctl.close()
	<-db.gate
	return db.db.Close()
}

// Path returns the database file, or "" for an in-memory database.
func (db *DB) Path() string { return db.path }

// migrate brings the database to the migrations up to last ("" for all):
// a new one from the template (fromTemplate) or the snapshot, then every
// migration it lacks, each in its own transaction.
func (db *DB) migrate(ctx context.Context, last string, fromTemplate bool) error {
	switch {
	case fromTemplate:
		if _, err := db.fromTemplate(ctx); err != nil {
			return err
		}
	case last == "":
		if _, err := db.fromSnapshot(ctx); err != nil {
			return err
		}
	}
	if _, err := db.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY)`); err != nil {
		return fmt.Errorf("create migrations table: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	applied, err := db.applied(ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		if last != "" && path.Base(name) > last {
			break
		}
		if applied[name] {
			continue
		}
		if err := db.migrateFile(ctx, name); err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return nil
}

// applied is the set of migrations the database has.
func (db *DB) applied(ctx context.Context) (map[string]bool, error) {
	var names []string
	err := db.Read(ctx, func(tx *Tx) error {
		var err error
		names, err = Values[string](ctx, tx, `SELECT name FROM migrations`)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read the applied migrations: %w", err)
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set, nil
}

// rebuildMarker opens a migration that rebuilds tables other tables
// reference (SQLite cannot drop a column's UNIQUE in place): it runs with
// foreign keys off, as SQLite's documented procedure for such changes
// asks, and checks every reference before it commits.
const rebuildMarker = "-- homologa: rebuilds tables"

// migrateFile applies one migration in its own transaction, so a failing one
// leaves the database as the previous one left it.
func (db *DB) migrateFile(ctx context.Context, name string) error {
	body, err := fs.ReadFile(migrations, name)
	if err != nil {
		return err
	}
	rebuild := strings.HasPrefix(string(body), rebuildMarker)
	if rebuild {
		// The pool holds one connection, so the pragma is the migration's.
		if _, err := db.db.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
			return err
		}
		defer db.db.ExecContext(ctx, `PRAGMA foreign_keys = ON`)
	}
	return db.Tx(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			return err
		}
		if rebuild {
			rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
			if err != nil {
				return err
			}
			broken := rows.Next()
			rows.Close()
			if broken {
				return fmt.Errorf("the rebuilt tables break a foreign key")
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO migrations (name) VALUES (?)`, name)
		return err
	})
}

// Tx is a transaction with hooks that run after it commits.
type Tx struct {
	q     querier
	db    *DB
	after []func()
	// open are the result sets of fn's queries, closed when it ends
	// (onConn).
	open []*sql.Rows
}

// querier is what a Tx runs its statements on: the connection (onConn).
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// Exec runs a statement without a context (tests, migrations).
func (tx *Tx) Exec(query string, args ...any) (sql.Result, error) {
	return tx.ExecContext(context.Background(), query, args...)
}

// Query runs a query without a context.
func (tx *Tx) Query(query string, args ...any) (*sql.Rows, error) {
	return tx.QueryContext(context.Background(), query, args...)
}

// QueryRow runs a one-row query without a context.
func (tx *Tx) QueryRow(query string, args ...any) *sql.Row {
	return tx.QueryRowContext(context.Background(), query, args...)
}

// PrepareContext prepares a statement for the transaction.
func (tx *Tx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return tx.q.PrepareContext(ctx, query)
}

// The statements of a transaction take ctx only to stop at its end: a
// statement asked for after the request ended fails with the context's
// error, and the transaction rolls back; one already running finishes.
// mattn/go-sqlite3 watches a cancellable context by running each Exec
// in a goroutine of its own and each query's rows behind an AfterFunc:
// at a handful of statements per request that is a goroutine, a
// channel and two switches per statement, a large share of a
// creation's CPU, to interrupt statements that take microseconds
// (lists are paged, retention deletes batched).

// ExecContext runs a statement that returns no rows.
func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	return tx.q.ExecContext(context.WithoutCancel(ctx), query, args...)
}

// QueryContext runs a query that returns rows.
func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	rows, err := tx.q.QueryContext(context.WithoutCancel(ctx), query, args...)
	if err == nil && tx.open != nil {
		tx.open = append(tx.open, rows)
	}
	return rows, err
}

// QueryRowContext runs a query that returns at most one row; an ended
// ctx shows as the row's error.
func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if ctx.Err() != nil {
		return tx.q.QueryRowContext(ctx, query, args...)
	}
	return tx.q.QueryRowContext(context.WithoutCancel(ctx), query, args...)
}

// Move runs fn, which stores a state machine's move: only inside it may a
// guarded status column change. Package statemachine is its one caller.
func (tx *Tx) Move(fn func() error) error {
	tx.db.moving.Add(1)
	defer tx.db.moving.Add(-1)
	return fn()
}

// AfterCommit registers f to run once the transaction has committed; it does
// not run if the transaction rolls back.
func (tx *Tx) AfterCommit(f func()) { tx.after = append(tx.after, f) }

// Tx runs fn in a transaction, committing when fn returns nil and rolling
// back otherwise. fn must use tx only: with one connection, a query on db
// from inside fn would wait for fn forever.
func (db *DB) Tx(ctx context.Context, fn func(tx *Tx) error) error {
	db.txMu.Lock()
	defer db.txMu.Unlock()
	tx, err := db.run(ctx, fn)
	if err != nil {
		return err
	}
	// After the connection is back: a hook may read.
	for _, f := range tx.after {
		f()
	}
	return nil
}

// run holds the connection (gate) for one transaction of fn.
//
// The transaction is BEGIN and COMMIT run on the connection by
// statements prepared once (txControl), not a database/sql transaction:
// its bookkeeping (a goroutine watching the context, a lock per
// statement) and mattn's BEGIN and COMMIT, parsed again for every
// transaction, are work a creation need not do. The connection is fn's
// alone meanwhile (the gate). A panic in fn rolls back before it goes
// on, so the connection goes back clean (a database/sql transaction left
// open by a panic would keep the sandbox's one connection for good:
// every request after it would wait).
//
// The end of ctx does not abort the transaction: database/sql rolled a
// transaction back by discarding its connection, and closing the one
// connection of an in-memory database throws the whole database away (a
// client hanging up during a request did that). Statements inside still
// take ctx, and a cancelled statement fails without harming the
// connection.
func (db *DB) run(ctx context.Context, fn func(tx *Tx) error) (tx *Tx, err error) {
	err = db.onConn(ctx, func(conn *sql.Conn, t *Tx) error {
		if err := db.txControl(conn, txBegin); err != nil {
			return fmt.Errorf("begin transaction: %w", err)
		}
		committed := false
		defer func() {
			if !committed {
				t.closeRows()
				if rerr := db.txControl(conn, txRollback); rerr != nil {
					err = errors.Join(err, fmt.Errorf("rollback: %w", rerr))
				}
			}
		}()
		if err := fn(t); err != nil {
			return err
		}
		t.closeRows()
		if err := db.txControl(conn, txCommit); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		committed = true
		tx = t
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tx, nil
}

// onConn runs fn with the connection, in its turn (enter), and a Tx on
// it whose result sets are closed when fn ends: a connection waits for
// its open rows before it goes back, and rows left open by fn would
// hold the sandbox's one connection for good.
func (db *DB) onConn(ctx context.Context, fn func(conn *sql.Conn, tx *Tx) error) error {
	if err := db.enter(ctx); err != nil {
		return err
	}
	defer db.leave()
	conn, err := db.db.Conn(context.WithoutCancel(ctx))
	if err != nil {
		return fmt.Errorf("take the connection: %w", err)
	}
	tx := &Tx{q: conn, db: db, open: make([]*sql.Rows, 0, 2)}
	defer func() {
		tx.closeRows()
		conn.Close()
	}()
	return fn(conn, tx)
}

// enter waits its turn for the connection, in arrival order, or until
// ctx ends.
func (db *DB) enter(ctx context.Context) error {
	if ctx.Err() != nil { // select picks at random when both are ready
		return fmt.Errorf("wait for the database: %w", context.Cause(ctx))
	}
	select {
	case db.gate <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for the database: %w", context.Cause(ctx))
	}
}

func (db *DB) leave() { <-db.gate }

func (tx *Tx) closeRows() {
	for _, rows := range tx.open {
		rows.Close()
	}
	tx.open = tx.open[:0]
}

// What txControl runs.
const (
	txBegin = iota
	txCommit
	txRollback
)

var txSQL = [...]string{txBegin: "BEGIN", txCommit: "COMMIT", txRollback: "ROLLBACK"}

// txStatements are BEGIN, COMMIT and ROLLBACK prepared on the connection
// they were prepared on. Only the holder of the gate touches them.
type txStatements struct {
	conn  *sqlite3.SQLiteConn
	stmts [len(txSQL)]driver.Stmt
}

// txControl runs BEGIN, COMMIT or ROLLBACK (which) on conn. A ROLLBACK
// after an error that already rolled the transaction back (SQLite does,
// on a full disk or memory) is nothing to do.
func (db *DB) txControl(conn *sql.Conn, which int) error {
	return conn.Raw(func(dc any) error {
		c := dc.(*sqlite3.SQLiteConn)
		if which == txRollback && c.AutoCommit() {
			return nil
		}
		if db.ctl.conn != c {
			db.ctl.close() // a connection database/sql replaced
			for i, q := range txSQL {
				st, err := c.Prepare(q)
				if err != nil {
					db.ctl.close()
					return fmt.Errorf("prepare %s: %w", q, err)
				}
				db.ctl.stmts[i] = st
			}
			db.ctl.conn = c
		}
		_, err := db.ctl.stmts[which].(driver.StmtExecContext).ExecContext(context.Background(), nil)
		return err
	})
}

// close finalizes the statements: a connection closed with statements
// of its own left is kept by SQLite, its in-memory database with it,
// until they are.
func (t *txStatements) close() {
	for i, st := range t.stmts {
		if st != nil {
			st.Close()
		}
		t.stmts[i] = nil
	}
	t.conn = nil
}

// Read runs fn, which only reads. It does not take the writers' mutex
// (there is no after-commit hook to order), so a read waits only for the
// connection, in arrival order, never behind a queue of writers.
//
// fn's statements run on the connection without BEGIN and ROLLBACK: the
// sandbox's one connection is fn's alone while it runs (the gate), so no
// write of the sandbox can come between two of its statements, and a
// database/sql transaction's bookkeeping is a large share of a GET.
// fn must not write: nothing would roll it back.
func (db *DB) Read(ctx context.Context, fn func(tx *Tx) error) error {
	return db.onConn(ctx, func(_ *sql.Conn, tx *Tx) error { return fn(tx) })
}

// IDSource makes identifiers; tests inject a deterministic one.
type IDSource interface {
	// UUID returns a version-4 UUID string.
	UUID() string
	// Token returns n random bytes, hex encoded.
	Token(n int) string
}

// RandomIDs is the IDSource of a running sandbox: crypto/rand.
type RandomIDs struct{}

// UUID returns a random version-4 UUID.
func (RandomIDs) UUID() string {
	var b [16]byte
	rand.Read(b[:])
	return formatUUID(b)
}

// Token returns n random bytes, hex encoded.
func (RandomIDs) Token(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// SequentialIDs is a deterministic IDSource for tests: the same sequence of
// calls yields the same ids on every run.
type SequentialIDs struct {
	mu sync.Mutex
	n  uint64
}

// UUID returns the next UUID of the sequence.
func (s *SequentialIDs) UUID() string {
	var b [16]byte
	s.mu.Lock()
	s.n++
	n := s.n
	s.mu.Unlock()
	for i := 0; i < 8; i++ {
		b[15-i] = byte(n >> (8 * i))
	}
	return formatUUID(b)
}

// Token returns the next token of the sequence.
func (s *SequentialIDs) Token(n int) string {
	s.mu.Lock()
	s.n++
	v := s.n
	s.mu.Unlock()
	return strings.Repeat("0", max(0, 2*n-16)) + fmt.Sprintf("%016x", v)[max(0, 16-2*n):]
}

func formatUUID(b [16]byte) string {
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
