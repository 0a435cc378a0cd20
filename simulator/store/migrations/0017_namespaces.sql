-- homologa: rebuilds tables
-- Namespaces: a company's CNPJ and an app's client id are unique within a
-- namespace, so that a namespace can hold a fresh copy of the demo company
-- (same CNPJ, same credentials, data and clock of its own) and the same
-- test can run many times, and in parallel, against one sandbox. The
-- namespace '' is the sandbox's own, where every company lived before.
CREATE TABLE namespaces (
	id         TEXT PRIMARY KEY,
	created_at INTEGER NOT NULL
);

CREATE TABLE companies_new (
	id         TEXT PRIMARY KEY,
	namespace  TEXT NOT NULL DEFAULT '',
	cnpj       TEXT NOT NULL,
	name       TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	UNIQUE (namespace, cnpj)
);
INSERT INTO companies_new (id, cnpj, name, created_at) SELECT id, cnpj, name, created_at FROM companies;
DROP TABLE companies;
ALTER TABLE companies_new RENAME TO companies;

CREATE TABLE apps_new (
	id             TEXT PRIMARY KEY,
	company_id     TEXT NOT NULL REFERENCES companies(id),
	namespace      TEXT NOT NULL DEFAULT '',
	name           TEXT NOT NULL,
	client_id      TEXT NOT NULL,
	secret_hash    TEXT NOT NULL,
	webhook_url    TEXT NOT NULL DEFAULT '',
	webhook_secret TEXT NOT NULL,
	scopes         TEXT NOT NULL,
	environment    TEXT NOT NULL,
	created_at     INTEGER NOT NULL,
	updated_at     INTEGER NOT NULL,
	UNIQUE (namespace, client_id)
);
INSERT INTO apps_new (id, company_id, name, client_id, secret_hash, webhook_url, webhook_secret, scopes, environment, created_at, updated_at)
	SELECT id, company_id, name, client_id, secret_hash, webhook_url, webhook_secret, scopes, environment, created_at, updated_at FROM apps;
DROP TABLE apps;
ALTER TABLE apps_new RENAME TO apps;
CREATE INDEX apps_company ON apps(company_id);

-- A Pix key is unique within a namespace, as DICT makes it unique among
-- real receivers: every copy of the demo company holds the demo's keys.
CREATE TABLE pix_keys_new (
	chave      TEXT NOT NULL,
	tipo       TEXT NOT NULL,
	app_id     TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
	company_id TEXT NOT NULL REFERENCES companies(id),
	namespace  TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	PRIMARY KEY (namespace, chave)
);
INSERT INTO pix_keys_new (chave, tipo, app_id, company_id, created_at) SELECT chave, tipo, app_id, company_id, created_at FROM pix_keys;
DROP TABLE pix_keys;
ALTER TABLE pix_keys_new RENAME TO pix_keys;
CREATE INDEX pix_keys_app ON pix_keys(app_id);
