-- Insurance sale cycle: offer grants, signature tokens and their outbox,
-- card pre-authorisations, proposals with their timeline and pendings, and
-- the enrollments implantation creates.

CREATE TABLE insurance_grants (
	company_id TEXT NOT NULL REFERENCES companies(id),
	offer_id   TEXT NOT NULL,
	granted    INTEGER NOT NULL,          -- 1 granted, 0 revoked (overrides the catalogue)
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (company_id, offer_id)
);

CREATE TABLE signature_tokens (
	id          TEXT PRIMARY KEY,
	company_id  TEXT NOT NULL,
	app_id      TEXT NOT NULL,
	cpf         TEXT NOT NULL,
	code        TEXT NOT NULL,
	channel     TEXT NOT NULL,             -- Email | SMS
	system_id   TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	expires_at  INTEGER NOT NULL,
	used_at     INTEGER,
	used_by     INTEGER                    -- the proposal it signed
);
CREATE INDEX signature_tokens_cpf ON signature_tokens(company_id, cpf, code);

CREATE TABLE outbox_messages (
	id          TEXT PRIMARY KEY,
	company_id  TEXT NOT NULL,
	app_id      TEXT NOT NULL,
	cpf         TEXT NOT NULL,
	channel     TEXT NOT NULL,
	destination TEXT NOT NULL,
	subject     TEXT NOT NULL,
	body        TEXT NOT NULL,
	code        TEXT NOT NULL,
	created_at  INTEGER NOT NULL
);
CREATE INDEX outbox_messages_cpf ON outbox_messages(company_id, cpf, created_at);

CREATE TABLE card_preauths (
	code        TEXT PRIMARY KEY,
	company_id  TEXT NOT NULL,
	cpf         TEXT NOT NULL,
	valor       REAL NOT NULL,
	bandeira    TEXT NOT NULL,
	final       TEXT NOT NULL,             -- last four digits, never the number
	created_at  INTEGER NOT NULL,
	used_by     INTEGER
);

CREATE TABLE proposal_numbers (
	numero      INTEGER PRIMARY KEY,
	company_id  TEXT NOT NULL,
	offer_id    TEXT NOT NULL,
	created_at  INTEGER NOT NULL
);

CREATE TABLE propostas (
	numero      INTEGER PRIMARY KEY,
	company_id  TEXT NOT NULL,
	app_id      TEXT NOT NULL,
	offer_id    TEXT NOT NULL,
	cpf         TEXT NOT NULL,
	status      TEXT NOT NULL,
	motivo      TEXT NOT NULL DEFAULT '',
	valor_total REAL NOT NULL,
	request     TEXT NOT NULL,             -- the PROPOSTA as received (card number never stored)
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX propostas_company ON propostas(company_id, created_at);

CREATE TABLE proposta_timeline (
	id          INTEGER PRIMARY KEY,
	numero      INTEGER NOT NULL REFERENCES propostas(numero),
	at          INTEGER NOT NULL,
	status      TEXT NOT NULL,
	usuario     TEXT NOT NULL,
	descricao   TEXT NOT NULL,
	pendencia   INTEGER
);
CREATE INDEX proposta_timeline_numero ON proposta_timeline(numero, at, id);

CREATE TABLE pendencias (
	id          INTEGER PRIMARY KEY,
	numero      INTEGER NOT NULL REFERENCES propostas(numero),
	status      TEXT NOT NULL,
	grupo       TEXT NOT NULL,
	codigo      TEXT NOT NULL,
	descricao   TEXT NOT NULL,
	responsavel TEXT NOT NULL,
	resposta    TEXT NOT NULL DEFAULT '',
	autor       TEXT NOT NULL DEFAULT '',
	documento   TEXT NOT NULL DEFAULT '',  -- JSON {nomeArquivo, formato, tamanho} (content not kept)
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX pendencias_numero ON pendencias(numero, id);

CREATE TABLE inscricoes (
	id          INTEGER PRIMARY KEY,
	numero      INTEGER NOT NULL REFERENCES propostas(numero),
	company_id  TEXT NOT NULL,
	app_id      TEXT NOT NULL,
	cpf         TEXT NOT NULL,
	produto_id  INTEGER NOT NULL,
	status      TEXT NOT NULL,
	body        TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX inscricoes_company ON inscricoes(company_id, cpf);
CREATE INDEX inscricoes_numero ON inscricoes(numero);
