-- homologa: rebuilds tables
-- Each owner's world: a company's CNPJ is unique among its account's
-- companies (and among the sandbox's own, of no account), no longer in
-- the whole namespace, where whoever registered a CNPJ first held it
-- from its real owner; a Pix key is unique within its company, for the
-- same reason. Lookups by CNPJ or key across owners take the oldest.
CREATE TABLE companies_new (
	id         TEXT PRIMARY KEY,
	namespace  TEXT NOT NULL DEFAULT '',
	cnpj       TEXT NOT NULL,
	name       TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	account_id TEXT REFERENCES accounts(id)
);
INSERT INTO companies_new (id, namespace, cnpj, name, created_at, account_id)
	SELECT id, namespace, cnpj, name, created_at, account_id FROM companies;
DROP TABLE companies;
ALTER TABLE companies_new RENAME TO companies;
CREATE INDEX companies_account ON companies(account_id);
CREATE INDEX companies_cnpj ON companies(namespace, cnpj, created_at);

CREATE TABLE pix_keys_new (
	chave      TEXT NOT NULL,
	tipo       TEXT NOT NULL,
	app_id     TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
	company_id TEXT NOT NULL REFERENCES companies(id),
	namespace  TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	PRIMARY KEY (company_id, chave)
);
INSERT INTO pix_keys_new (chave, tipo, app_id, company_id, namespace, created_at)
	SELECT chave, tipo, app_id, company_id, namespace, created_at FROM pix_keys;
DROP TABLE pix_keys;
ALTER TABLE pix_keys_new RENAME TO pix_keys;
CREATE INDEX pix_keys_app ON pix_keys(app_id);
CREATE INDEX pix_keys_chave ON pix_keys(namespace, chave, created_at);
