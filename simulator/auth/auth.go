package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"homologa/simulator/certs"
	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
	"homologa/simulator/tenant"
)

// Scopes is the catalogue of scopes an app may hold: the 24 of the official
// API Pix, the insurer's evidenced ones (insurance SUMMARY §2.1) and ours for
// the benefits and customer APIs, whose real names are not public.
var Scopes = []string{
	"cob.read", "cob.write", "cobv.read", "cobv.write", "lotecobv.read", "lotecobv.write",
	"cobr.read", "cobr.write", "rec.read", "rec.write", "solicrec.read", "solicrec.write",
	"pix.read", "pix.write", "webhook.read", "webhook.write", "webhookrec.read", "webhookrec.write",
	"webhookcobr.read", "webhookcobr.write", "payloadlocation.read", "payloadlocation.write",
	"payloadlocationrec.read", "payloadlocationrec.write",
	"apiseguradora", "apiunderwriting", "cartaocredito", "api.questionario", "apicontroleacesso",
	"apibeneficio", "apicliente",
}

// The environments of an app. The sandbox issues tokens to sandbox apps only.
const (
	Sandbox    = "sandbox"
	Production = "production"
)

// Company is a partner company, known by its CNPJ.
type Company struct {
	ID string `json:"id"`
	// Namespace holds the company: "" is the sandbox's own; a test's
	// namespace holds its copy of the demo company.
	Namespace string    `json:"namespace,omitempty"`
	CNPJ      string    `json:"cnpj"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
	// AccountID is the portal account that owns the company ("" for the
	// operator's).
	AccountID string `json:"-"`
}

// App is an App/Client of a company. Its client secret is stored hashed and
// shown only when created or rotated; the portal shows the webhook
// signing secret only then too (Listed).
type App struct {
	ID            string   `json:"id"`
	CompanyID     string   `json:"companyId"`
	Namespace     string   `json:"namespace,omitempty"`
	CNPJ          string   `json:"cnpj"`
	Name          string   `json:"name"`
	ClientID      string   `json:"clientId"`
	ClientSecret  string   `json:"clientSecret,omitempty"`
	WebhookURL    string   `json:"webhookUrl"`
	WebhookSecret string   `json:"webhookSecret,omitempty"`
	Scopes        []string `json:"scopes"`
	Environment   string   `json:"environment"`
	// WidgetOrigins are the origins the app's pages embed the widgets
	// from (SetWidgetOrigins).
	WidgetOrigins []string  `json:"widgetOrigins"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
}

// Listed is the app as the portal shows it after creation: no secret.
func (a App) Listed() App {
	a.ClientSecret, a.WebhookSecret = "", ""
	return a
}

// Service keeps companies, apps and tokens.
type Service struct {
	DB *store.DB
	// Clocks gives each company its time (what its apps' records say
	// they were made at). Credentials do not live by it: see WallClock.
	Clocks   *clock.Clocks
	TokenTTL time.Duration
	// WallClock is the time credentials live by (nil: time.Now). An
	// access token expires expires_in real seconds after it was issued,
	// as in production, whatever its company's sandbox clock says: a
	// feature that advances its company ten days still holds a valid
	// token, and a partner's token cache, which counts real seconds,
	// agrees with the sandbox. ExpireTokens ends them on purpose.
	WallClock func() time.Time
	Webhooks  WebhookPolicy
	// OperatorToken is the operator's credential: sandbox-wide control
	// (the default clock, shared scenarios, a reset of everything).
	OperatorToken string
	// SecureCookies marks the portal's session cookie Secure: the sandbox
	// is served over TLS (its --public-url is https, or --tls).
	SecureCookies bool
	// CA signs the client certificates the portal issues to apps.
	CA *certs.CA
	// MutualTLS is --mtls: the routes of mutual TLS (the API Pix, the
	// token endpoint) take the app's client certificate, and a token
	// bound to it.
	MutualTLS bool

	// tokens caches resolved tokens: every partner request authenticates,
	// and a database read for each would be the largest cost of a GET.
	mu     sync.Mutex
	tokens map[string]cachedToken
	// namespaces caches the namespaces known to exist; eventApps, what
	// the bus needs of each app (EventApp).
	namespaces sync.Map
	eventApps  sync.Map
	// appPrincipals keeps AppPrincipal's answers.
	appPrincipals sync.Map

	// ClientGuesses and AddrGuesses throttle the token endpoint's failed
	// attempts: per app and remote address, and per remote address for
	// client ids no app has. Nil ones are made with their defaults on
	// first use.
	ClientGuesses, AddrGuesses *Throttle
	// LoginGuesses and LoginAddrs throttle the portal's failed logins:
	// per email (whether an account has it or not, so the answer tells
	// nothing) and remote address, and per remote address.
	LoginGuesses, LoginAddrs *Throttle
	// Registrations counts the portal's registrations per address: 10
	// an hour unless set (--quota-registrations).
	Registrations *Window
	// PasswordHashers is how many password hashes (bcrypt) run at once;
	// 0 is half the processors, at least one (hashing.go).
	PasswordHashers int
	hashTurns       chan struct{}
}

type cachedToken struct {
	p   Principal
	exp time.Time
}

func (s *Service) cacheToken(hash string, p Principal, exp time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tokens == nil || len(s.tokens) > 100_000 {
		s.tokens = map[string]cachedToken{}
	}
	s.tokens[hash] = cachedToken{p, exp}
}

// forgetApp drops the cached tokens of an app (its secret was rotated).
func (s *Service) forgetApp(appID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for h, t := range s.tokens {
		if t.p.AppID == appID {
			delete(s.tokens, h)
		}
	}
}

// wallNow is the instant credentials are judged at.
func (s *Service) wallNow() time.Time {
	if s.WallClock != nil {
		return s.WallClock()
	}
	return time.Now()
}

// ExpireTokens ends every access token of a company's apps now, as if
// their expires_in had run out: the next call with one is refused as
// expired (401 invalid_token), so a feature can prove a partner renews
// its token. It answers how many tokens it ended.
func (s *Service) ExpireTokens(ctx context.Context, companyID string) (int, error) {
	if !tenant.Named(companyID) {
		return 0, errs.Errorf(errs.Invalid, "expirar tokens é uma ação de uma empresa: use o token de um app dela")
	}
	apps, err := s.AppsOf(ctx, companyID)
	if err != nil {
		return 0, err
	}
	now := s.wallNow().UnixNano()
	var n int64
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tokens SET expires_at = ? WHERE expires_at > ? AND app_id IN (SELECT id FROM apps WHERE company_id = ?)`, now, now, companyID)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("expire tokens: %w", err)
	}
	for _, a := range apps {
		s.forgetApp(a.ID)
	}
	return int(n), nil
}

func hashSecret(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// CreateCompany registers a company of no account: the operator's, from
// an --apps file or the sandbox's own seeding. The CNPJ may be masked and
// may be alphanumeric; it is stored unmasked.
func (s *Service) CreateCompany(ctx context.Context, cnpj, name string) (Company, error) {
	return s.CreateOwnedCompany(ctx, Owner{Operator: true}, cnpj, name)
}

const companyColumns = `id, namespace, cnpj, name, created_at, COALESCE(account_id, '')`

func scanCompany(row store.Scanner) (Company, error) {
	var c Company
	var at int64
	err := row.Scan(&c.ID, &c.Namespace, &c.CNPJ, &c.Name, &at, &c.AccountID)
	c.CreatedAt = time.Unix(0, at).UTC()
	return c, err
}

// Company returns the company with id key, or with CNPJ key in the
// namespace ctx names: since each owner may register a CNPJ in its own
// world, the sandbox's own (of no account) first, then the oldest.
func (s *Service) Company(ctx context.Context, key string) (Company, error) {
	var c Company
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		c, err = scanCompany(tx.QueryRowContext(ctx, `SELECT `+companyColumns+` FROM companies WHERE id = ?
			UNION ALL SELECT * FROM (SELECT `+companyColumns+` FROM companies WHERE namespace = ? AND cnpj = ? ORDER BY account_id IS NULL DESC, created_at, id LIMIT 1)
			LIMIT 1`, key, tenant.Namespace(ctx), taxid.NormalizeCNPJ(key)))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Company{}, errs.Errorf(errs.NotFound, "nenhuma empresa %q", key)
	}
	if err != nil {
		return Company{}, fmt.Errorf("read company: %w", err)
	}
	return c, nil
}

// NewApp is what creating an app takes. ClientID, ClientSecret and
// WebhookSecret are generated when empty; a pre-registration file may fix
// them so that a team shares stable sandbox credentials.
type NewApp struct {
	Company       string // id or CNPJ
	Name          string
	WebhookURL    string
	Scopes        []string
	Environment   string
	ClientID      string
	ClientSecret  string
	WebhookSecret string
}

// CreateApp creates an App/Client and returns it with its client secret,
// the only time the secret is shown.
func (s *Service) CreateApp(ctx context.Context, in NewApp) (App, error) {
	c, err := s.Company(ctx, in.Company)
	if err != nil {
		if errs.As(err).Code == errs.NotFound {
			return App{}, errs.Invalidf("companyId", "nenhuma empresa %q; cadastre-a antes com POST /portal/companies", in.Company)
		}
		return App{}, err
	}
	now := s.Clocks.NowOf(c.ID)
	a := App{
		ID: s.DB.IDs.UUID(), CompanyID: c.ID, Namespace: c.Namespace, CNPJ: c.CNPJ, Name: strings.TrimSpace(in.Name), WidgetOrigins: []string{},
		ClientID: in.ClientID, ClientSecret: in.ClientSecret, WebhookURL: in.WebhookURL, WebhookSecret: in.WebhookSecret,
		Scopes: in.Scopes, Environment: in.Environment, CreatedAt: now, UpdatedAt: now,
	}
	if a.Name == "" {
		return App{}, errs.Invalidf("name", "não pode ser vazio")
	}
	if a.Environment == "" {
		a.Environment = Sandbox
	}
	if a.Environment != Sandbox && a.Environment != Production {
		return App{}, errs.Invalidf("environment", "deve ser %q ou %q", Sandbox, Production)
	}
	if len(a.Scopes) == 0 {
		a.Scopes = slices.Clone(Scopes)
	}
	for _, sc := range a.Scopes {
		if !slices.Contains(Scopes, sc) {
			return App{}, errs.Invalidf("scopes", "escopo desconhecido: %q", sc)
		}
	}
	if a.WebhookURL != "" {
		if err := s.Webhooks.Check(a.WebhookURL); err != nil {
			return App{}, errs.Invalidf("webhookUrl", "%v", err)
		}
	}
	if a.ClientID == "" {
		a.ClientID = "hmlg_" + s.DB.IDs.Token(12)
	}
	if a.ClientSecret == "" {
		a.ClientSecret = s.DB.IDs.Token(24)
	}
	if a.WebhookSecret == "" {
		a.WebhookSecret = "whsec_" + s.DB.IDs.Token(24)
	}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM apps WHERE namespace = ? AND client_id = ?`, c.Namespace, a.ClientID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errs.Errorf(errs.Conflict, "o client id %q já está em uso", a.ClientID)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO apps (id, company_id, namespace, name, client_id, secret_hash, webhook_url, webhook_secret, scopes, environment, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.CompanyID, c.Namespace, a.Name, a.ClientID, hashSecret(a.ClientSecret), a.WebhookURL, a.WebhookSecret,
			strings.Join(a.Scopes, " "), a.Environment, now.UnixNano(), now.UnixNano())
		return err
	})
	if err != nil {
		return App{}, fmt.Errorf("create app: %w", err)
	}
	return a, nil
}

const appColumns = `a.id, a.company_id, a.namespace, c.cnpj, a.name, a.client_id, a.webhook_url, a.webhook_secret, a.scopes, a.environment, a.created_at, a.updated_at, a.widget_origins`

func scanApp(row store.Scanner) (App, error) {
	var a App
	var scopes, origins string
	var created, updated int64
	err := row.Scan(&a.ID, &a.CompanyID, &a.Namespace, &a.CNPJ, &a.Name, &a.ClientID, &a.WebhookURL, &a.WebhookSecret, &scopes, &a.Environment, &created, &updated, &origins)
	a.Scopes = strings.Fields(scopes)
	a.WidgetOrigins = append([]string{}, strings.Fields(origins)...)
	a.CreatedAt, a.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return a, err
}

// App returns the app with the given id or client id.
func (s *Service) App(ctx context.Context, key string) (App, error) {
	var a App
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		a, err = AppTx(ctx, tx, key)
		return err
	})
	return a, err
}

// AppTx is App inside a transaction: the app with id key, or with client
// id key in the namespace ctx names.
func AppTx(ctx context.Context, tx *store.Tx, key string) (App, error) {
	a, err := scanApp(tx.QueryRowContext(ctx, `SELECT `+appColumns+` FROM apps a JOIN companies c ON c.id = a.company_id
		WHERE a.id = ? OR (a.namespace = ? AND a.client_id = ?)`, key, tenant.Namespace(ctx), key))
	if errors.Is(err, sql.ErrNoRows) {
		return App{}, errs.Errorf(errs.NotFound, "nenhum app %q", key)
	}
	if err != nil {
		return App{}, fmt.Errorf("read app: %w", err)
	}
	return a, nil
}

// ClientID returns the client id of the app appID.
func (s *Service) ClientID(ctx context.Context, appID string) (string, error) {
	a, err := s.App(ctx, appID)
	return a.ClientID, err
}

// CompanyOf names the company of the app appID.
func (s *Service) CompanyOf(ctx context.Context, appID string) (string, error) {
	a, err := s.App(ctx, appID)
	return a.CompanyID, err
}

// AppIDsOf lists the ids of a company's apps.
func (s *Service) AppIDsOf(ctx context.Context, companyID string) ([]string, error) {
	apps, err := s.AppsOf(ctx, companyID)
	ids := make([]string, len(apps))
	for i, a := range apps {
		ids[i] = a.ID
	}
	return ids, err
}

// AppID returns the id of the app whose client id is clientID.
func (s *Service) AppID(ctx context.Context, clientID string) (string, error) {
	a, err := s.App(ctx, clientID)
	return a.ID, err
}

// EventApp returns what the event bus needs of an app (its company,
// webhook URL and signing secret), inside tx: the bus asks when it emits
// and when it delivers.
// Every emitted event asks, so the answers are kept in memory: a query
// an event weighs on time travel, which emits thousands. The writers of a webhook
// URL or secret forget the app inside their transaction, which the one
// connection serialises with every reader's, so no reader keeps an old
// answer.
func (s *Service) EventApp(ctx context.Context, tx *store.Tx, appID string) (events.App, error) {
	if v, ok := s.eventApps.Load(appID); ok {
		return v.(events.App), nil
	}
	a, err := AppTx(ctx, tx, appID)
	if err != nil {
		return events.App{}, err
	}
	ea := events.App{CompanyID: a.CompanyID, WebhookURL: a.WebhookURL, Secret: a.WebhookSecret}
	s.eventApps.Store(a.ID, ea)
	return ea, nil
}

// AppPrincipal is the principal of an app as its resources' owner: its
// id, company, CNPJ and client id, which never change, so the answers are
// kept in memory (every insurance move asks).
func (s *Service) AppPrincipal(ctx context.Context, tx *store.Tx, appID string) (Principal, error) {
	if v, ok := s.appPrincipals.Load(appID); ok {
		return v.(Principal), nil
	}
	a, err := AppTx(ctx, tx, appID)
	if err != nil {
		return Principal{}, err
	}
	p := Principal{AppID: a.ID, CompanyID: a.CompanyID, Namespace: a.Namespace, CNPJ: a.CNPJ, ClientID: a.ClientID}
	s.appPrincipals.Store(a.ID, p)
	return p, nil
}

// Apps lists the apps of the namespace ctx names, oldest first.
func (s *Service) Apps(ctx context.Context) ([]App, error) {
	return s.listApps(ctx, `a.namespace = ?`, tenant.Namespace(ctx))
}

// listApps lists the apps a condition over apps (aliased a) selects,
// oldest first.
func (s *Service) listApps(ctx context.Context, where string, args ...any) ([]App, error) {
	var apps []App
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		apps, err = store.All(ctx, tx, scanApp,
			`SELECT `+appColumns+` FROM apps a JOIN companies c ON c.id = a.company_id WHERE `+where+` ORDER BY a.created_at, a.id`, args...)
		return err
	})
	return apps, err
}

// RotateSecret replaces the client secret of an app and revokes its tokens.
func (s *Service) RotateSecret(ctx context.Context, key string) (App, error) {
	a, err := s.App(ctx, key)
	if err != nil {
		return App{}, err
	}
	a.ClientSecret = s.DB.IDs.Token(24)
	a.UpdatedAt = s.Clocks.NowOf(a.CompanyID)
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE apps SET secret_hash = ?, updated_at = ? WHERE id = ?`, hashSecret(a.ClientSecret), a.UpdatedAt.UnixNano(), a.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE app_id = ?`, a.ID)
		return err
	})
	if err != nil {
		return App{}, fmt.Errorf("rotate secret: %w", err)
	}
	s.forgetApp(a.ID)
	return a, nil
}

// SetWebhook sets (or with "" clears) the webhook URL of an app.
func (s *Service) SetWebhook(ctx context.Context, key, webhookURL string) (App, error) {
	a, err := s.App(ctx, key)
	if err != nil {
		return App{}, err
	}
	if webhookURL != "" {
		if err := s.Webhooks.Check(webhookURL); err != nil {
			return App{}, errs.Invalidf("webhookUrl", "%v", err)
		}
	}
	a.WebhookURL, a.UpdatedAt = webhookURL, s.Clocks.NowOf(a.CompanyID)
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		s.eventApps.Delete(a.ID)
		_, err := tx.ExecContext(ctx, `UPDATE apps SET webhook_url = ?, updated_at = ? WHERE id = ?`, a.WebhookURL, a.UpdatedAt.UnixNano(), a.ID)
		return err
	})
	if err != nil {
		return App{}, fmt.Errorf("set webhook: %w", err)
	}
	return a, nil
}

// MaxWidgetOrigins is how many origins an app may embed widgets from.
const MaxWidgetOrigins = 20

// WidgetOrigin reads a web origin as a browser writes it: http or https,
// a host, a port when not the scheme's; nothing else. It answers the
// origin in its canonical form, or why it is not one, in Portuguese.
func WidgetOrigin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(u.Host, " *") {
		return "", fmt.Errorf("%q não é uma origem: informe esquema, host e porta, como https://parceiro.example ou http://localhost:3000", raw)
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host, nil
}

// SetWidgetOrigins sets the origins an app's pages embed the widgets
// from: a widget framed for the app (?clientId=) is framed by them only,
// takes its token from them and posts its results to them.
func (s *Service) SetWidgetOrigins(ctx context.Context, key string, origins []string) (App, error) {
	a, err := s.App(ctx, key)
	if err != nil {
		return App{}, err
	}
	if len(origins) > MaxWidgetOrigins {
		return App{}, errs.Invalidf("origins", "no máximo %d origens", MaxWidgetOrigins)
	}
	clean := []string{}
	for i, o := range origins {
		c, err := WidgetOrigin(o)
		if err != nil {
			return App{}, errs.Invalidf(fmt.Sprintf("origins.%d", i), "%v", err)
		}
		if !slices.Contains(clean, c) {
			clean = append(clean, c)
		}
	}
	a.WidgetOrigins, a.UpdatedAt = clean, s.Clocks.NowOf(a.CompanyID)
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE apps SET widget_origins = ?, updated_at = ? WHERE id = ?`, strings.Join(clean, " "), a.UpdatedAt.UnixNano(), a.ID)
		return err
	})
	if err != nil {
		return App{}, fmt.Errorf("set widget origins: %w", err)
	}
	return a, nil
}

// Token is an issued access token.
type Token struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
	Scope       string `json:"scope"`
	// Cnf names the client certificate the token is bound to (RFC 8705
	// §3.1's confirmation, shown in the answer since the token itself is
	// opaque); absent for a token asked for without one.
	Cnf *Confirmation `json:"cnf,omitempty"`
	// AppID and CompanyID name whose token it is; they stay in the sandbox.
	AppID     string `json:"-"`
	CompanyID string `json:"-"`
}

// Confirmation is RFC 8705's cnf: the SHA-256 thumbprint of the
// certificate a token is bound to.
type Confirmation struct {
	X5tS256 string `json:"x5t#S256"`
}

// IssueToken runs the client-credentials grant: it checks the app's secret
// and narrows its scopes to those asked for (all of them when scope is "").
// The token endpoint runs it behind a throttle on guessing
// (issueThrottled).
func (s *Service) IssueToken(ctx context.Context, clientID, clientSecret, scope string) (Token, error) {
	a, hash, found, err := s.client(ctx, clientID)
	if err != nil {
		return Token{}, err
	}
	if !found || !secretMatches(hash, clientSecret) {
		return Token{}, invalidClient()
	}
	return s.grant(ctx, a, scope, "")
}

// invalidClient is the answer to a client id no app has or a wrong secret:
// the same for both, so it tells a guesser nothing.
func invalidClient() *errs.Error {
	return errs.Errorf(errs.Unauthorized, "falha na autenticação do cliente").WithType("invalid_client").
		WithHeader("WWW-Authenticate", `Basic realm="homologa"`)
}

// client finds the app a token request names and the hash of its secret;
// found is false when no app has the client id.
func (s *Service) client(ctx context.Context, clientID string) (a App, hash string, found bool, err error) {
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		a, err = appByClientID(ctx, tx, clientID)
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT secret_hash FROM apps WHERE id = ?`, a.ID).Scan(&hash)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return App{}, "", false, nil
	}
	if err != nil {
		return App{}, "", false, fmt.Errorf("issue token: %w", err)
	}
	return a, hash, true, nil
}

// secretMatches reports whether secret is the one hash was made of, in
// constant time.
func secretMatches(hash, secret string) bool {
	return subtle.ConstantTimeCompare([]byte(hash), []byte(hashSecret(secret))) == 1
}

// grant issues a token to an app whose secret was checked: a sandbox app
// only, with the scopes asked for among its own, bound to the client
// certificate whose thumbprint is cnf ("" for none).
func (s *Service) grant(ctx context.Context, a App, scope, cnf string) (Token, error) {
	if a.Environment != Sandbox {
		invalid := invalidClient()
		invalid.Message = fmt.Sprintf("o cliente %s tem credenciais de %s; este sandbox aceita só credenciais de sandbox (crie um app de sandbox no portal)", a.ClientID, a.Environment)
		return Token{}, invalid
	}
	scopes := a.Scopes
	if scope = strings.TrimSpace(scope); scope != "" {
		scopes = strings.Fields(scope)
		for _, sc := range scopes {
			if !slices.Contains(a.Scopes, sc) {
				return Token{}, errs.Errorf(errs.Invalid, "o escopo %q não foi concedido ao cliente %s", sc, a.ClientID).WithType("invalid_scope")
			}
		}
	}
	ttl := s.TokenTTL
	if ttl <= 0 {
		ttl = time.Hour
	}
	raw := s.DB.IDs.Token(32)
	now := s.wallNow()
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		// Expired tokens are useless; dropping the app's here keeps the
		// table small.
		if _, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE app_id = ? AND expires_at <= ?`, a.ID, now.UnixNano()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, app_id, scopes, expires_at, cnf_x5t) VALUES (?, ?, ?, ?, ?)`,
			hashSecret(raw), a.ID, strings.Join(scopes, " "), now.Add(ttl).UnixNano(), cnf)
		return err
	})
	if err != nil {
		return Token{}, fmt.Errorf("store token: %w", err)
	}
	tok := Token{AccessToken: raw, TokenType: "Bearer", ExpiresIn: int64(ttl / time.Second), Scope: strings.Join(scopes, " "), AppID: a.ID, CompanyID: a.CompanyID}
	if cnf != "" {
		tok.Cnf = &Confirmation{X5tS256: cnf}
	}
	return tok, nil
}

// appByClientID finds the app a token request names: in the namespace the
// request names; without one, in the sandbox's own namespace, else the one
// app of any namespace with that client id. Generated client ids are
// random, so a partner's integration asks for its token as in production,
// knowing nothing of namespaces; only copies of the demo app share theirs,
// and those are named with the namespace.
func appByClientID(ctx context.Context, tx *store.Tx, clientID string) (App, error) {
	ns := tenant.Namespace(ctx)
	a, err := scanApp(tx.QueryRowContext(ctx, `SELECT `+appColumns+` FROM apps a JOIN companies c ON c.id = a.company_id WHERE a.namespace = ? AND a.client_id = ?`,
		ns, clientID))
	if !errors.Is(err, sql.ErrNoRows) || ns != "" {
		return a, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+appColumns+` FROM apps a JOIN companies c ON c.id = a.company_id WHERE a.client_id = ? LIMIT 2`, clientID)
	if err != nil {
		return App{}, err
	}
	defer rows.Close()
	var found []App
	for rows.Next() {
		a, err := scanApp(rows)
		if err != nil {
			return App{}, err
		}
		found = append(found, a)
	}
	if err := rows.Err(); err != nil {
		return App{}, err
	}
	if len(found) != 1 {
		return App{}, sql.ErrNoRows
	}
	return found[0], nil
}

// Principal is the app behind a bearer token.
type Principal struct {
	AppID     string
	CompanyID string
	// Namespace holds the app's company; names the app's requests use
	// (client ids, CNPJs) are looked up in it.
	Namespace string
	CNPJ      string
	ClientID  string
	Scopes    []string
	// Thumbprint is the x5t#S256 of the client certificate the token is
	// bound to; "" for an unbound token.
	Thumbprint string
}

// HasScope reports whether the token carries scope.
func (p Principal) HasScope(scope string) bool { return slices.Contains(p.Scopes, scope) }

// HasAnyScope reports whether the token carries one of scopes; true when
// scopes is empty.
func (p Principal) HasAnyScope(scopes []string) bool {
	if len(scopes) == 0 {
		return true
	}
	for _, sc := range scopes {
		if p.HasScope(sc) {
			return true
		}
	}
	return false
}

// Authenticate resolves a bearer token. An expired token's error comes
// with the principal it was issued to, so that the refused request is
// logged as that app's (its interaction log shows the partner met an
// expired token); a caller acts for the principal only when err is nil.
func (s *Service) Authenticate(ctx context.Context, token string) (Principal, error) {
	hash := hashSecret(token)
	s.mu.Lock()
	c, ok := s.tokens[hash]
	s.mu.Unlock()
	if ok {
		if !s.wallNow().Before(c.exp) {
			return c.p, bearerError("invalid_token", "token de acesso expirado; peça um novo em /oauth/token")
		}
		return c.p, nil
	}
	var p Principal
	var scopes string
	var exp int64
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT a.id, a.company_id, c.namespace, c.cnpj, a.client_id, t.scopes, t.expires_at, t.cnf_x5t
			FROM tokens t JOIN apps a ON a.id = t.app_id JOIN companies c ON c.id = a.company_id WHERE t.hash = ?`,
			hash).Scan(&p.AppID, &p.CompanyID, &p.Namespace, &p.CNPJ, &p.ClientID, &scopes, &exp, &p.Thumbprint)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Principal{}, bearerError("invalid_token", "token de acesso desconhecido")
	}
	if err != nil {
		return Principal{}, fmt.Errorf("authenticate: %w", err)
	}
	p.Scopes = strings.Fields(scopes)
	if !s.wallNow().Before(time.Unix(0, exp)) {
		return p, bearerError("invalid_token", "token de acesso expirado; peça um novo em /oauth/token")
	}
	s.cacheToken(hash, p, time.Unix(0, exp))
	return p, nil
}

func bearerError(code, msg string) *errs.Error {
	return errs.Errorf(errs.Unauthorized, "%s", msg).
		WithHeader("WWW-Authenticate", fmt.Sprintf(`Bearer realm="homologa", error=%q, error_description=%q`, code, msg))
}

// WebhookPolicy is where webhooks may point: the sandbox's webhook guard,
// asked about the URL's literal host at registration. The guard checks
// again, address by address, at every delivery.
type WebhookPolicy struct {
	// Guard is the sandbox's; nil is the loopback default.
	Guard *events.Guard
}

// Check reports why a webhook URL may not be used, or nil.
func (p WebhookPolicy) Check(raw string) error {
	g := p.Guard
	if g == nil {
		g = events.DefaultGuard()
	}
	return g.CheckURL(raw)
}

// AppsOf lists a company's apps.
func (s *Service) AppsOf(ctx context.Context, companyID string) ([]App, error) {
	return s.listApps(ctx, `a.company_id = ?`, companyID)
}

// CompanyIDs lists every company of every namespace (the operator's reset
// of everything).
func (s *Service) CompanyIDs(ctx context.Context) ([]string, error) {
	return s.companyIDs(ctx, `SELECT id FROM companies ORDER BY created_at, id`)
}

// companyIDs lists the ids a query of companies answers.
func (s *Service) companyIDs(ctx context.Context, query string, args ...any) ([]string, error) {
	var ids []string
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		ids, err = store.All(ctx, tx, func(r store.Scanner) (string, error) {
			var id string
			return id, r.Scan(&id)
		}, query, args...)
		return err
	})
	return ids, err
}

// MaxNamespaces is how many live namespaces one owner may hold: a test
// run makes one per scenario and empties it at the end, so this is only
// reached by runs that died midway, or by abuse of a hosted sandbox.
const MaxNamespaces = 1000

// CreateNamespace makes a namespace, where CNPJs and client ids may repeat
// those of other namespaces, for owner ("account:<id>", "company:<id>", ""
// for the operator).
func (s *Service) CreateNamespace(ctx context.Context, owner string) (string, error) {
	id := "ns_" + s.DB.IDs.Token(12)
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		if owner != "" {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM namespaces WHERE owner = ? AND removed_at = 0`, owner).Scan(&n); err != nil {
				return err
			}
			if n >= MaxNamespaces {
				return errs.Errorf(errs.TooManyRequests, "você já tem %d namespaces: apague os que não usa mais com DELETE /sandbox/namespaces/{id}", n).
					WithHeader("Retry-After", "60")
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO namespaces (id, created_at, owner) VALUES (?, ?, ?)`, id, s.Clocks.Default.Now().UnixNano(), owner)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("create namespace: %w", err)
	}
	s.namespaces.Store(id, true)
	return id, nil
}

// NamespaceOwner names who made a namespace.
func (s *Service) NamespaceOwner(ctx context.Context, id string) (string, error) {
	var owner string
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT owner FROM namespaces WHERE id = ?`, id).Scan(&owner)
	})
	return owner, err
}

// NamespaceRemoved marks a namespace emptied: it no longer counts against
// its owner's live namespaces.
func (s *Service) NamespaceRemoved(ctx context.Context, id string) error {
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE namespaces SET removed_at = ? WHERE id = ? AND removed_at = 0`, time.Now().UnixNano(), id)
		return err
	})
}

// NamespaceExists reports whether a namespace was made ("" always is).
func (s *Service) NamespaceExists(ctx context.Context, id string) (bool, error) {
	if id == "" {
		return true, nil
	}
	if _, ok := s.namespaces.Load(id); ok {
		return true, nil
	}
	var n int
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM namespaces WHERE id = ?`, id).Scan(&n)
	})
	if err != nil {
		return false, err
	}
	if n > 0 {
		s.namespaces.Store(id, true)
	}
	return n > 0, nil
}

// CompaniesIn lists the companies of a namespace.
func (s *Service) CompaniesIn(ctx context.Context, ns string) ([]string, error) {
	return s.companyIDs(ctx, `SELECT id FROM companies WHERE namespace = ? ORDER BY created_at, id`, ns)
}
