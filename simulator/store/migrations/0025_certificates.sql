-- Issue 18: TLS and mutual TLS. The sandbox's CA (one row), kept so the
-- certificates it signed survive a restart; the client certificates the
-- portal issued to apps (their public part: the key is the partner's,
-- shown once); and the certificate a token is bound to (RFC 8705
-- x5t#S256, '' for an unbound token).
CREATE TABLE sandbox_ca (
	id         INTEGER PRIMARY KEY CHECK (id = 1),
	cert_pem   TEXT NOT NULL,
	key_pem    TEXT NOT NULL,
	created_at INTEGER NOT NULL
);

CREATE TABLE app_certificates (
	id         TEXT PRIMARY KEY,
	app_id     TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
	thumbprint TEXT NOT NULL UNIQUE,
	serial     TEXT NOT NULL,
	subject    TEXT NOT NULL,
	not_before INTEGER NOT NULL,
	not_after  INTEGER NOT NULL,
	created_at INTEGER NOT NULL,
	revoked_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX app_certificates_app ON app_certificates(app_id);

ALTER TABLE tokens ADD COLUMN cnf_x5t TEXT NOT NULL DEFAULT '';
