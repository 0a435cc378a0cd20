-- Pix: DICT keys of each app, locations, charges (cob and cobv) with their
-- revisions, received Pix and refunds, and webhooks per key.

CREATE TABLE pix_keys (
	chave      TEXT PRIMARY KEY,
	tipo       TEXT NOT NULL,
	app_id     TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
	company_id TEXT NOT NULL REFERENCES companies(id),
	created_at INTEGER NOT NULL
);
CREATE INDEX pix_keys_app ON pix_keys(app_id);

CREATE TABLE pix_locs (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	company_id TEXT NOT NULL,
	app_id     TEXT NOT NULL,
	tipo_cob   TEXT NOT NULL,
	token      TEXT NOT NULL UNIQUE,
	location   TEXT NOT NULL,
	cob_id     INTEGER,
	created_at INTEGER NOT NULL
);
CREATE INDEX pix_locs_company ON pix_locs(company_id, created_at);

CREATE TABLE pix_cobs (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	company_id   TEXT NOT NULL,
	app_id       TEXT NOT NULL,
	kind         TEXT NOT NULL,           -- cob | cobv
	txid         TEXT NOT NULL,
	status       TEXT NOT NULL,
	revisao      INTEGER NOT NULL,
	loc_id       INTEGER,
	devedor_cpf  TEXT NOT NULL DEFAULT '',
	devedor_cnpj TEXT NOT NULL DEFAULT '',
	lote_id      INTEGER,
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL,
	body         TEXT NOT NULL,           -- the current revision, as answered
	UNIQUE (company_id, txid)
);
CREATE INDEX pix_cobs_list ON pix_cobs(company_id, kind, created_at);

CREATE TABLE pix_cob_revisions (
	cob_id  INTEGER NOT NULL REFERENCES pix_cobs(id) ON DELETE CASCADE,
	revisao INTEGER NOT NULL,
	body    TEXT NOT NULL,
	PRIMARY KEY (cob_id, revisao)
);

CREATE TABLE pix_received (
	e2eid        TEXT PRIMARY KEY,
	company_id   TEXT NOT NULL,
	app_id       TEXT NOT NULL,
	chave        TEXT NOT NULL,
	txid         TEXT NOT NULL DEFAULT '',
	cob_id       INTEGER,
	valor        INTEGER NOT NULL,        -- cents
	pagador_cpf  TEXT NOT NULL DEFAULT '',
	pagador_cnpj TEXT NOT NULL DEFAULT '',
	horario      INTEGER NOT NULL,
	body         TEXT NOT NULL            -- the Pix without devolucoes
);
CREATE INDEX pix_received_list ON pix_received(company_id, horario);
CREATE INDEX pix_received_cob ON pix_received(cob_id);

CREATE TABLE pix_refunds (
	e2eid      TEXT NOT NULL REFERENCES pix_received(e2eid),
	id         TEXT NOT NULL,
	rtr_id     TEXT NOT NULL UNIQUE,
	valor      INTEGER NOT NULL,
	natureza   TEXT NOT NULL,
	status     TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	body       TEXT NOT NULL,
	PRIMARY KEY (e2eid, id)
);

CREATE TABLE pix_webhooks (
	company_id TEXT NOT NULL,
	chave      TEXT NOT NULL,
	app_id     TEXT NOT NULL,
	url        TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (company_id, chave)
);
