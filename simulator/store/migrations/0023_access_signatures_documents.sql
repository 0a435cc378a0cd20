-- Access management as the 2025 client calls it (issue 16): users
-- (GET/POST /gestao-acesso/v1/user) and signatures made with a one-time
-- code (POST /gestao-acesso/v1/signature), which sign the proponent's next
-- proposal; and the v2 API's documents (POST/GET /api/{version}/Documento),
-- where a signed proposal filed under the customer's CPF signs it too.
CREATE TABLE access_users (
	company_id  TEXT NOT NULL,
	username    TEXT NOT NULL,
	document    TEXT NOT NULL,
	email       TEXT NOT NULL DEFAULT '',
	name        TEXT NOT NULL DEFAULT '',
	cellphone   TEXT NOT NULL DEFAULT '',
	active      INTEGER NOT NULL DEFAULT 1,
	created_at  INTEGER NOT NULL,
	PRIMARY KEY (company_id, username)
);

CREATE TABLE signatures (
	id          TEXT PRIMARY KEY,
	company_id  TEXT NOT NULL,
	app_id      TEXT NOT NULL,
	cpf         TEXT NOT NULL,
	token_id    TEXT NOT NULL REFERENCES signature_tokens(id) ON DELETE CASCADE,
	description TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL,
	used_by     INTEGER                    -- the proposal it signed
);
CREATE INDEX signatures_cpf ON signatures(company_id, cpf, created_at);

CREATE TABLE documentos (
	id          TEXT PRIMARY KEY,
	company_id  TEXT NOT NULL,
	body        TEXT NOT NULL,             -- the Documento as answered; of its pages, only their size
	created_at  INTEGER NOT NULL,
	used_by     INTEGER                    -- the proposal a signed proposal document signed
);
CREATE INDEX documentos_company ON documentos(company_id, created_at);
