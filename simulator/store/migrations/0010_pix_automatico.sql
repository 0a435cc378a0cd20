-- Pix Automático: locations of recurrences, recurrences (rec), confirmation
-- requests (solicrec), recurring charges (cobr), and the receiving user's
-- two webhooks (/webhookrec, /webhookcobr).

CREATE TABLE pix_locrecs (
	id         INTEGER PRIMARY KEY,
	company_id TEXT NOT NULL,
	app_id     TEXT NOT NULL,
	token      TEXT NOT NULL UNIQUE,
	location   TEXT NOT NULL,
	id_rec     TEXT,
	created_at INTEGER NOT NULL
);
CREATE INDEX pix_locrecs_company ON pix_locrecs(company_id, created_at);

CREATE TABLE pix_recs (
	id_rec     TEXT PRIMARY KEY,
	company_id TEXT NOT NULL,
	app_id     TEXT NOT NULL,
	status     TEXT NOT NULL,
	cpf        TEXT NOT NULL DEFAULT '',
	cnpj       TEXT NOT NULL DEFAULT '',
	convenio   TEXT NOT NULL DEFAULT '',
	loc_id     INTEGER,
	body       TEXT NOT NULL,            -- RecCompleta, as answered
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX pix_recs_company ON pix_recs(company_id, created_at);

CREATE TABLE pix_solicrecs (
	id_solic_rec TEXT PRIMARY KEY,
	id_rec       TEXT NOT NULL REFERENCES pix_recs(id_rec),
	company_id   TEXT NOT NULL,
	app_id       TEXT NOT NULL,
	status       TEXT NOT NULL,
	body         TEXT NOT NULL,          -- SolicRecCompleta
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL
);
CREATE INDEX pix_solicrecs_rec ON pix_solicrecs(id_rec, status);

CREATE TABLE pix_cobrs (
	company_id TEXT NOT NULL,
	txid       TEXT NOT NULL,
	app_id     TEXT NOT NULL,
	id_rec     TEXT NOT NULL REFERENCES pix_recs(id_rec),
	status     TEXT NOT NULL,
	vencimento TEXT NOT NULL,            -- YYYY-MM-DD, as requested
	body       TEXT NOT NULL,            -- CobRCompleta
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (company_id, txid)
);
CREATE INDEX pix_cobrs_rec ON pix_cobrs(id_rec, vencimento);
CREATE INDEX pix_cobrs_company ON pix_cobrs(company_id, created_at);

CREATE TABLE pix_rec_webhooks (
	company_id TEXT NOT NULL,
	kind       TEXT NOT NULL,            -- rec | cobr
	app_id     TEXT NOT NULL,
	url        TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (company_id, kind)
);
