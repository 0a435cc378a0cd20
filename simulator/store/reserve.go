package store

/*
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

// mattn/go-sqlite3 links SQLite into the binary but its sqlite3.h is not
// on this package's include path: the two functions used are declared.
typedef struct sqlite3 sqlite3;
extern int sqlite3_deserialize(sqlite3 *db, const char *zSchema, unsigned char *pData,
	long long szDb, long long szBuf, unsigned mFlags);
extern unsigned char *sqlite3_serialize(sqlite3 *db, const char *zSchema, long long *piSize,
	unsigned int mFlags);

static void *homologa_reserve(size_t size) {
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

// No SQLITE_DESERIALIZE_RESIZEABLE: SQLite never reallocates (moves) the
// buffer; the database grows in it up to szBuf. No FREEONCLOSE: the
// buffer is not SQLite's to free.
static int homologa_place(sqlite3 *db, void *buf, long long size) {
	return sqlite3_deserialize(db, "main", (unsigned char *)buf, 0, size, 0);
}

static void *homologa_buffer(sqlite3 *db) {
	long long size;
	return sqlite3_serialize(db, "main", &size, 1); // SQLITE_SERIALIZE_NOCOPY
}

static long long homologa_memory(void) {
	return (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
}
*/
import "C"

import (
	"context"
	"fmt"
	"reflect"
	"unsafe"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// An in-memory database lives in a region of address space reserved
// when it is made, as large as the machine's memory (capped at 1 TiB),
// that it grows into without ever moving; a database that fills it gets
// SQLITE_FULL, as a full disk.
//
// Why: SQLite's memdb buffer doubles by realloc, which for a large buffer
// moves its pages to a new address (mremap). On this bench's host (a PVM
// microVM, whose hypervisor shadows the guest's page tables) every page
// moved then costs ~7.4 µs the next time it is touched, with no page
// fault the guest sees (C: 64 MiB touched, moved, touched again), and the
// move itself ~4 ms per 64 MiB, inside a commit. pixbench's creations,
// PUTs alone for 26 s at 32 connections (~150,000, the database past
// 512 MiB), alternating builds: p99 10.9–12.1 ms before, 9.3–10.8 in the
// region; a max past 250 ms in three runs of three before, two of four
// after (something else makes those). Reserving costs nothing
// until pages are touched (MAP_NORESERVE); where the kernel refuses the
// reservation (strict overcommit, a small address space) the database
// keeps SQLite's own buffer.
type reservation struct {
	p    unsafe.Pointer
	size C.size_t
}

// reserve places conn's main database, new and empty, in a reserved
// region; nil, and no error, when there is no room for one.
func reserve(conn *sqlite3.SQLiteConn) (*reservation, error) {
	size := C.size_t(regionSize())
	p := C.homologa_reserve(size)
	if p == nil {
		return nil, nil
	}
	if rc := C.homologa_place(handleOf(conn), p, C.longlong(size)); rc != 0 {
		C.munmap(p, size)
		return nil, fmt.Errorf("place the in-memory database: SQLite error %d", int(rc))
	}
	return &reservation{p: p, size: size}, nil
}

// regionSize is the size of a region: the machine's memory, at most
// 1 TiB (a variable for the test that fills one).
var regionSize = func() int64 { return min(machineMemory(), 1<<40) }

func machineMemory() int64 { return int64(C.homologa_memory()) }

// release unmaps the region, once the connection using it is closed
// (database/sql finalizes every statement of a connection before closing
// it, so SQLite keeps no zombie connection that would touch it later).
func (r *reservation) release() {
	if r != nil {
		C.munmap(r.p, r.size)
	}
}

// handleOf is the sqlite3* of a connection, which mattn/go-sqlite3 keeps
// unexported.
func handleOf(conn *sqlite3.SQLiteConn) *C.sqlite3 {
	return (*C.sqlite3)(reflect.ValueOf(conn).Elem().FieldByName("db").UnsafePointer())
}

// inReservation reports whether the database's pages are in db's
// reserved region (a memdb file's buffer is its serialization).
func (db *DB) inReservation(ctx context.Context) (bool, error) {
	if db.mem == nil {
		return false, nil
	}
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	var buf unsafe.Pointer
	err = conn.Raw(func(dc any) error {
		buf = C.homologa_buffer(handleOf(dc.(*sqlite3.SQLiteConn)))
		return nil
	})
	return buf == db.mem.p, err
}
