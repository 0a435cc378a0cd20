-- Portal accounts: a person registers (email, password, company) and logs
-- in; companies belong to accounts, and the portal shows an account only
-- its own. Companies registered before accounts existed (and those of an
-- --apps file) have none: only the operator reaches them through the
-- portal.
CREATE TABLE accounts (
	id            TEXT PRIMARY KEY,
	namespace     TEXT NOT NULL DEFAULT '',
	email         TEXT NOT NULL,
	name          TEXT NOT NULL DEFAULT '',
	password_hash TEXT NOT NULL,
	created_at    INTEGER NOT NULL,
	UNIQUE (namespace, email)
);

-- An account's credentials: browser sessions (a cookie) and personal API
-- tokens, stored as SHA-256 hashes of random 32-byte tokens (a slow KDF
-- buys nothing for values with 256 bits of entropy). id names one in
-- listings and revocations; expires_at is wall-clock nanoseconds, 0 for
-- an API token, which lives until revoked.
CREATE TABLE account_credentials (
	hash       TEXT PRIMARY KEY,
	id         TEXT NOT NULL UNIQUE,
	account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	kind       TEXT NOT NULL CHECK (kind IN ('session', 'token')),
	name       TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX account_credentials_account ON account_credentials(account_id);

ALTER TABLE companies ADD COLUMN account_id TEXT REFERENCES accounts(id);
CREATE INDEX companies_account ON companies(account_id);

-- Who made a namespace ("account:<id>", "company:<id>"; '' the operator):
-- they may empty it, and a cap on live namespaces applies per owner.
ALTER TABLE namespaces ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE namespaces ADD COLUMN removed_at INTEGER NOT NULL DEFAULT 0;
