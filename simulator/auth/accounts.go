package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"homologa/simulator/errs"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
	"homologa/simulator/tenant"
)

// Account is a person registered in the portal: it owns companies, and
// the portal shows it only its own. Its password is kept as a bcrypt hash
// (golang.org/x/crypto): a real password KDF, never a fast hash.
type Account struct {
	ID        string    `json:"id"`
	Namespace string    `json:"namespace,omitempty"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// Password rules: long enough to resist guessing, short enough for bcrypt,
// which reads at most 72 bytes.
const (
	minPassword = 10
	maxPassword = 72
)

// How long a portal session lives (wall clock: a session is the person's,
// not the simulated company's).
const SessionTTL = 12 * time.Hour

// Credential prefixes: a glance tells a portal API token from an app's
// access token or the operator's, and secret scanners can match them.
const (
	APITokenPrefix = "hpat_"
	sessionPrefix  = "hses_"
)

// NewAccount is what registering takes: the person and their first company.
type NewAccount struct {
	Email, Password, Name string
	CompanyCNPJ           string
	CompanyName           string
	// PasswordHash, when set, is used instead of hashing Password: the
	// demo account's is fixed at build time so every start (and every
	// namespace copy) skips bcrypt's deliberate slowness.
	PasswordHash string
}

// checkEmail normalises an email address, or says what is wrong with it.
func checkEmail(raw string) (string, error) {
	email := strings.ToLower(strings.TrimSpace(raw))
	if len(email) > 254 {
		return "", errs.Invalidf("email", "no máximo 254 caracteres")
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || !strings.Contains(email[strings.IndexByte(email, '@'):], ".") {
		return "", errs.Invalidf("email", "%q não é um endereço de e-mail", raw)
	}
	return email, nil
}

// HashPassword checks the password rules and hashes it.
func HashPassword(password string) (string, error) { return hashPassword(password) }

// hashPassword checks the password rules and hashes it.
func hashPassword(password string) (string, error) {
	if len(password) < minPassword {
		return "", errs.Invalidf("password", "no mínimo %d caracteres", minPassword)
	}
	if len(password) > maxPassword {
		return "", errs.Invalidf("password", "no máximo %d bytes", maxPassword)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// Register creates an account and its first company, in the namespace ctx
// names. The email is unique within the namespace.
func (s *Service) Register(ctx context.Context, in NewAccount) (Account, Company, error) {
	email, err := checkEmail(in.Email)
	if err != nil {
		return Account{}, Company{}, err
	}
	hash := in.PasswordHash
	if hash == "" {
		if hash, err = s.hash(ctx, in.Password); err != nil {
			return Account{}, Company{}, err
		}
	}
	now := time.Now().UTC()
	a := Account{ID: s.DB.IDs.UUID(), Namespace: tenant.Namespace(ctx), Email: email, Name: strings.TrimSpace(in.Name), CreatedAt: now}
	c, err := s.newCompany(ctx, in.CompanyCNPJ, in.CompanyName)
	if err != nil {
		return Account{}, Company{}, prefixField(err, "company.")
	}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM accounts WHERE namespace = ? AND email = ?`, a.Namespace, a.Email).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errs.Errorf(errs.Conflict, "já existe uma conta com o e-mail %s; entre com POST /portal/login", a.Email)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (id, namespace, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			a.ID, a.Namespace, a.Email, a.Name, hash, now.UnixNano()); err != nil {
			return err
		}
		return insertCompany(ctx, tx, c, a.ID)
	})
	if err != nil {
		return Account{}, Company{}, fmt.Errorf("register: %w", err)
	}
	return a, c, nil
}

// prefixField puts a prefix before the field an invalid-input error names
// ("cnpj" becomes "company.cnpj").
func prefixField(err error, prefix string) error {
	var e *errs.Error
	if !errors.As(err, &e) {
		return err
	}
	for i, v := range e.Violations {
		e.Message = strings.Replace(e.Message, v.Field+": ", prefix+v.Field+": ", 1)
		e.Violations[i].Field = prefix + v.Field
	}
	return err
}

// dummyHash is compared against when the email is unknown, so that a
// wrong email costs what a wrong password costs and timing does not tell
// which accounts exist. It is the bcrypt hash (cost 10, as every
// account's) of "homologa-no-such-account", computed once: hashing it at
// every start would make bcrypt's deliberate slowness part of the start.
var dummyHash = []byte("$2a$10$iO6diIB2j.ChoJ1ExhTu7Ol3dlCFWGPVJVsIDhk870SUb987v2Ah.")

// CheckPassword finds the account of email in the namespace ctx names and
// checks its password. Every failure is the same 401.
func (s *Service) CheckPassword(ctx context.Context, email, password string) (Account, error) {
	fail := errs.Errorf(errs.Unauthorized, "e-mail ou senha incorretos")
	email = strings.ToLower(strings.TrimSpace(email))
	var a Account
	var hash string
	var at int64
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT id, namespace, email, name, password_hash, created_at FROM accounts WHERE namespace = ? AND email = ?`,
			tenant.Namespace(ctx), email).Scan(&a.ID, &a.Namespace, &a.Email, &a.Name, &hash, &at)
	})
	if errors.Is(err, sql.ErrNoRows) {
		if err := s.compare(ctx, dummyHash, password); errs.CodeOf(err) == errs.TooManyRequests {
			return Account{}, err
		}
		return Account{}, fail
	}
	if err != nil {
		return Account{}, fmt.Errorf("check password: %w", err)
	}
	if err := s.compare(ctx, []byte(hash), password); err != nil {
		if errs.CodeOf(err) == errs.TooManyRequests {
			return Account{}, err
		}
		return Account{}, fail
	}
	a.CreatedAt = time.Unix(0, at).UTC()
	return a, nil
}

// Credential is one of an account's sessions or API tokens, as listed:
// never the token itself, which is shown once, when made.
type Credential struct {
	ID        string     `json:"id"`
	Kind      string     `json:"kind"`
	Name      string     `json:"name,omitempty"`
	Token     string     `json:"token,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
}

// The kinds of credential.
const (
	KindSession = "session"
	KindToken   = "token"
)

// NewCredential makes a session (which expires) or an API token (which
// lives until revoked) for an account, and returns it with its token.
func (s *Service) NewCredential(ctx context.Context, accountID, kind, name string) (Credential, error) {
	if len(name) > 100 {
		return Credential{}, errs.Invalidf("name", "no máximo 100 caracteres")
	}
	now := time.Now().UTC()
	c := Credential{ID: "cred_" + s.DB.IDs.Token(8), Kind: kind, Name: strings.TrimSpace(name), CreatedAt: now}
	var exp int64
	switch kind {
	case KindSession:
		c.Token = sessionPrefix + s.DB.IDs.Token(32)
		e := now.Add(SessionTTL)
		c.ExpiresAt, exp = &e, e.UnixNano()
	case KindToken:
		c.Token = APITokenPrefix + s.DB.IDs.Token(32)
	default:
		return Credential{}, fmt.Errorf("credential kind %q", kind)
	}
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		// Expired sessions are dropped as new ones are made: the table
		// holds what can still be used.
		if _, err := tx.ExecContext(ctx, `DELETE FROM account_credentials WHERE account_id = ? AND expires_at > 0 AND expires_at <= ?`, accountID, now.UnixNano()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO account_credentials (hash, id, account_id, kind, name, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			hashSecret(c.Token), c.ID, accountID, kind, c.Name, now.UnixNano(), exp)
		return err
	})
	if err != nil {
		return Credential{}, fmt.Errorf("new %s: %w", kind, err)
	}
	return c, nil
}

// Credentials lists an account's API tokens and live sessions.
func (s *Service) Credentials(ctx context.Context, accountID string) ([]Credential, error) {
	out := []Credential{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, kind, name, created_at, expires_at FROM account_credentials
			WHERE account_id = ? AND (expires_at = 0 OR expires_at > ?) ORDER BY created_at, id`, accountID, time.Now().UnixNano())
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c Credential
			var at, exp int64
			if err := rows.Scan(&c.ID, &c.Kind, &c.Name, &at, &exp); err != nil {
				return err
			}
			c.CreatedAt = time.Unix(0, at).UTC()
			if exp > 0 {
				e := time.Unix(0, exp).UTC()
				c.ExpiresAt = &e
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, err
}

// Revoke ends one of an account's credentials, by its id or its token.
func (s *Service) Revoke(ctx context.Context, accountID, key string) error {
	var n int64
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM account_credentials WHERE account_id = ? AND (id = ? OR hash = ?)`, accountID, key, hashSecret(key))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("revoke: %w", err)
	}
	if n == 0 {
		return errs.Errorf(errs.NotFound, "nenhuma credencial %q nesta conta", key)
	}
	return nil
}

// AccountOf resolves a session or API token to its account and the kind
// of credential it is.
func (s *Service) AccountOf(ctx context.Context, token string) (Account, string, error) {
	var a Account
	var kind string
	var at, exp int64
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT a.id, a.namespace, a.email, a.name, a.created_at, k.kind, k.expires_at
			FROM account_credentials k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?`, hashSecret(token)).
			Scan(&a.ID, &a.Namespace, &a.Email, &a.Name, &at, &kind, &exp)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Account{}, "", errs.Errorf(errs.Unauthorized, "sessão ou token do portal desconhecido; entre com POST /portal/login")
	}
	if err != nil {
		return Account{}, "", fmt.Errorf("account of credential: %w", err)
	}
	if exp > 0 && time.Now().UnixNano() >= exp {
		return Account{}, "", errs.Errorf(errs.Unauthorized, "sessão expirada; entre de novo com POST /portal/login")
	}
	a.CreatedAt = time.Unix(0, at).UTC()
	return a, kind, nil
}

// Owner is who acts through the portal: an account, on its own companies,
// or the operator, on every company of the namespace.
type Owner struct {
	AccountID string
	Operator  bool
}

// owns reports whether o may act on a company owned by accountID ("" for
// a company of no account: the operator's alone).
func (o Owner) owns(accountID string) bool {
	return o.Operator || (o.AccountID != "" && o.AccountID == accountID)
}

// CompaniesOf lists the companies an owner may act on, in the namespace ctx
// names, oldest first.
func (s *Service) CompaniesOf(ctx context.Context, o Owner) ([]Company, error) {
	out := []Company{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, namespace, cnpj, name, created_at, COALESCE(account_id, '') FROM companies
			WHERE namespace = ? AND (? OR account_id = ?) ORDER BY created_at, id`, tenant.Namespace(ctx), o.Operator, o.AccountID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanCompany(rows)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, err
}

// OwnedCompany is Company for the portal: the company with id key (or
// CNPJ key among the owner's in the namespace), if the owner may act on
// it; another's is not found, as if it did not exist.
func (s *Service) OwnedCompany(ctx context.Context, o Owner, key string) (Company, error) {
	var c Company
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		c, err = scanCompany(tx.QueryRowContext(ctx, `SELECT `+companyColumns+` FROM companies
			WHERE namespace = ? AND (id = ? OR cnpj = ?) AND (? OR account_id = ?) ORDER BY id = ? DESC, account_id IS NULL DESC, created_at, id LIMIT 1`,
			tenant.Namespace(ctx), key, taxid.NormalizeCNPJ(key), o.Operator, o.AccountID, key))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !o.owns(c.AccountID)) {
		return Company{}, errs.Errorf(errs.NotFound, "nenhuma empresa %q", key)
	}
	if err != nil {
		return Company{}, fmt.Errorf("read company: %w", err)
	}
	return c, nil
}

// OwnedApp is App for the portal: the app with id or client id key, if
// the owner may act on its company.
func (s *Service) OwnedApp(ctx context.Context, o Owner, key string) (App, error) {
	a, err := s.App(ctx, key)
	if err != nil {
		return App{}, err
	}
	c, err := s.Company(ctx, a.CompanyID)
	if err != nil {
		return App{}, err
	}
	if !o.owns(c.AccountID) || a.Namespace != tenant.Namespace(ctx) {
		return App{}, errs.Errorf(errs.NotFound, "nenhum app %q", key)
	}
	return a, nil
}

// OwnedApps lists the apps of the owner's companies in the namespace ctx
// names, oldest first.
func (s *Service) OwnedApps(ctx context.Context, o Owner) ([]App, error) {
	apps, err := s.listApps(ctx, `a.namespace = ? AND (? OR c.account_id = ?)`, tenant.Namespace(ctx), o.Operator, o.AccountID)
	if apps == nil {
		apps = []App{}
	}
	return apps, err
}

// CreateOwnedCompany registers a company for an account (the operator's
// belong to no account).
func (s *Service) CreateOwnedCompany(ctx context.Context, o Owner, cnpj, name string) (Company, error) {
	c, err := s.newCompany(ctx, cnpj, name)
	if err != nil {
		return Company{}, err
	}
	owner := o.AccountID
	if o.Operator {
		owner = ""
	}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		if owner != "" {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM companies WHERE account_id = ?`, owner).Scan(&n); err != nil {
				return err
			}
			if n >= MaxCompaniesPerAccount {
				return errs.Errorf(errs.TooManyRequests, "a conta já tem %d empresas, o máximo deste sandbox; homologue as outras em outra conta ou peça ao operador", n)
			}
		}
		return insertCompany(ctx, tx, c, owner)
	})
	if errs.Is(err, errs.TooManyRequests) {
		return Company{}, err
	}
	if err != nil {
		return Company{}, fmt.Errorf("create company: %w", err)
	}
	c.AccountID = owner
	return c, nil
}

// MaxCompaniesPerAccount is how many companies one portal account may
// register: every quota is a company's, so companies without bound would
// let one account take any share of what all companies have together
// (the built-in inbox, the storage). A broker homologating several CNPJs
// needs a handful.
const MaxCompaniesPerAccount = 20

// newCompany checks a company about to be registered.
func (s *Service) newCompany(ctx context.Context, cnpj, name string) (Company, error) {
	c := Company{ID: s.DB.IDs.UUID(), Namespace: tenant.Namespace(ctx), CNPJ: taxid.NormalizeCNPJ(cnpj), Name: strings.TrimSpace(name), CreatedAt: s.Clocks.Default.Now()}
	if err := taxid.CheckCNPJ(c.CNPJ); err != nil {
		return Company{}, errs.Invalidf("cnpj", "%v", err)
	}
	if c.Name == "" {
		return Company{}, errs.Invalidf("name", "não pode ser vazio")
	}
	if len(c.Name) > 200 {
		return Company{}, errs.Invalidf("name", "no máximo 200 caracteres")
	}
	return c, nil
}

// insertCompany stores a new company for an account ("" for none); its
// CNPJ is unique within the account's world (the sandbox's own, for
// none) in its namespace: another account having registered it first
// holds nothing from its owner.
func insertCompany(ctx context.Context, tx *store.Tx, c Company, accountID string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM companies WHERE namespace = ? AND cnpj = ? AND COALESCE(account_id, '') = ?`,
		c.Namespace, c.CNPJ, accountID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errs.Errorf(errs.Conflict, "uma empresa com o CNPJ %s já está cadastrada", c.CNPJ)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO companies (id, namespace, cnpj, name, created_at, account_id) VALUES (?, ?, ?, ?, ?, NULLIF(?, ''))`,
		c.ID, c.Namespace, c.CNPJ, c.Name, c.CreatedAt.UnixNano(), accountID)
	return err
}

// CreateOwnedApp is CreateApp for the portal: the company must be the
// owner's; an account of one company may leave it out.
func (s *Service) CreateOwnedApp(ctx context.Context, o Owner, in NewApp) (App, error) {
	if !tenant.Named(in.Company) && !o.Operator {
		cs, err := s.CompaniesOf(ctx, o)
		if err != nil {
			return App{}, err
		}
		if len(cs) != 1 {
			return App{}, errs.Invalidf("companyId", "diga de qual das %d empresas da conta é o app", len(cs))
		}
		in.Company = cs[0].ID
	}
	c, err := s.OwnedCompany(ctx, o, in.Company)
	if err != nil {
		if errs.CodeOf(err) == errs.NotFound {
			return App{}, errs.Invalidf("companyId", "nenhuma empresa %q nesta conta; cadastre-a antes com POST /portal/companies", in.Company)
		}
		return App{}, err
	}
	in.Company = c.ID // a CNPJ may name others' companies too
	return s.CreateApp(ctx, in)
}

// RotateWebhookSecret gives an app a new webhook signing secret: what is
// delivered from now on is signed with it.
func (s *Service) RotateWebhookSecret(ctx context.Context, appID string) (App, error) {
	a, err := s.App(ctx, appID)
	if err != nil {
		return App{}, err
	}
	a.WebhookSecret = "whsec_" + s.DB.IDs.Token(24)
	a.UpdatedAt = s.Clocks.NowOf(a.CompanyID)
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		s.eventApps.Delete(a.ID)
		_, err := tx.ExecContext(ctx, `UPDATE apps SET webhook_secret = ?, updated_at = ? WHERE id = ?`, a.WebhookSecret, a.UpdatedAt.UnixNano(), a.ID)
		return err
	})
	if err != nil {
		return App{}, fmt.Errorf("rotate webhook secret: %w", err)
	}
	return a, nil
}

// SeedAccount makes sure the account of in.Email exists in the namespace
// ctx names (with in.PasswordHash, or in.Password hashed) and owns the
// company companyID, if that company has no account yet: the demo
// account, and the demo company of a database older than accounts.
func (s *Service) SeedAccount(ctx context.Context, in NewAccount, companyID string) (Account, error) {
	email, err := checkEmail(in.Email)
	if err != nil {
		return Account{}, err
	}
	hash := in.PasswordHash
	if hash == "" {
		if hash, err = s.hash(ctx, in.Password); err != nil {
			return Account{}, err
		}
	}
	now := time.Now().UTC()
	a := Account{ID: s.DB.IDs.UUID(), Namespace: tenant.Namespace(ctx), Email: email, Name: in.Name, CreatedAt: now}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		var at int64
		err := tx.QueryRowContext(ctx, `SELECT id, created_at FROM accounts WHERE namespace = ? AND email = ?`, a.Namespace, a.Email).Scan(&a.ID, &at)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (id, namespace, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				a.ID, a.Namespace, a.Email, a.Name, hash, now.UnixNano()); err != nil {
				return err
			}
		case err != nil:
			return err
		default:
			a.CreatedAt = time.Unix(0, at).UTC()
			// A restart may change the password (a hosted sandbox's demo
			// password is new at every start).
			if _, err := tx.ExecContext(ctx, `UPDATE accounts SET password_hash = ? WHERE id = ?`, hash, a.ID); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE companies SET account_id = ? WHERE id = ? AND account_id IS NULL`, a.ID, companyID)
		return err
	})
	if err != nil {
		return Account{}, fmt.Errorf("seed account %s: %w", email, err)
	}
	return a, nil
}
