-- Customer cycle: the charges of each enrollment, the partner's
-- commissions and their monthly payouts, and the readjustment indexes.

CREATE TABLE cobrancas (
	id             INTEGER PRIMARY KEY,
	inscricao_id   INTEGER NOT NULL REFERENCES inscricoes(id),
	company_id     TEXT NOT NULL,
	app_id         TEXT NOT NULL,
	competencia    TEXT NOT NULL,          -- MM/YYYY, as COMP_DEBITO
	parcela        INTEGER NOT NULL,
	valor          REAL NOT NULL,
	vencimento     TEXT NOT NULL,          -- YYYY-MM-DD
	forma          TEXT NOT NULL,          -- BOLETO | CARTAO | DEBITO | FOLHA
	status         TEXT NOT NULL,
	motivo_recusa  TEXT NOT NULL DEFAULT '',
	data_pagamento INTEGER,
	created_at     INTEGER NOT NULL,
	updated_at     INTEGER NOT NULL,
	UNIQUE (inscricao_id, parcela)
);
CREATE INDEX cobrancas_company ON cobrancas(company_id, created_at);

CREATE TABLE comissoes (
	id           INTEGER PRIMARY KEY,
	cobranca_id  INTEGER NOT NULL REFERENCES cobrancas(id),
	inscricao_id INTEGER NOT NULL,
	company_id   TEXT NOT NULL,
	app_id       TEXT NOT NULL,
	valor        REAL NOT NULL,
	percentual   REAL NOT NULL,
	competencia  TEXT NOT NULL,
	status       TEXT NOT NULL,            -- EMITIDA | PAGA | ESTORNADA
	pago_em      INTEGER,
	estornado_em INTEGER,
	created_at   INTEGER NOT NULL
);
CREATE INDEX comissoes_company ON comissoes(company_id, status);
CREATE INDEX comissoes_inscricao ON comissoes(inscricao_id);

-- One payout job per company and month.
CREATE TABLE comissao_lotes (
	company_id TEXT NOT NULL,
	mes        TEXT NOT NULL,              -- YYYY-MM
	PRIMARY KEY (company_id, mes)
);

-- Monthly values (percent) of the readjustment indexes; the sandbox ships
-- a default table and the control API replaces months.
CREATE TABLE indices (
	indice TEXT NOT NULL,
	mes    TEXT NOT NULL,                  -- YYYY-MM
	valor  REAL NOT NULL,
	PRIMARY KEY (indice, mes)
);
