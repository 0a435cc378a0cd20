-- Benefit cycle: benefit notices and their regulation, the pendings of
-- documents raised on them, and their timeline.

CREATE TABLE beneficios (
	id               INTEGER PRIMARY KEY,
	protocolo        TEXT NOT NULL UNIQUE,
	company_id       TEXT NOT NULL,
	app_id           TEXT NOT NULL,
	inscricao_id     INTEGER NOT NULL REFERENCES inscricoes(id),
	numero           INTEGER NOT NULL,          -- the enrollment's proposal
	cpf              TEXT NOT NULL,             -- the insured's
	causa            TEXT NOT NULL,             -- MORTE, MORTE_ACIDENTAL, …
	status           TEXT NOT NULL,
	data_ocorrencia  TEXT NOT NULL,             -- YYYY-MM-DD
	aviso            TEXT NOT NULL,             -- JSON: the notice as GET echoes it (document content not kept)
	coberturas       TEXT NOT NULL,             -- JSON [{itemProdutoId, descricao, capitalSegurado}] claimed
	valor            REAL NOT NULL DEFAULT 0,   -- paid, once PAGO
	pago_em          INTEGER,
	beneficiarios    TEXT NOT NULL DEFAULT '[]',-- JSON [{cpf, nome, parentesco, percentual, valor}], once PAGO
	motivo_recusa    TEXT NOT NULL DEFAULT '',  -- OPIN denialJustification, while RECUSADO
	descricao_recusa TEXT NOT NULL DEFAULT '',
	created_at       INTEGER NOT NULL,
	updated_at       INTEGER NOT NULL
);
CREATE INDEX beneficios_company ON beneficios(company_id, cpf);
CREATE INDEX beneficios_inscricao ON beneficios(inscricao_id, causa);

CREATE TABLE beneficio_pendencias (
	id                   INTEGER PRIMARY KEY,
	beneficio_id         INTEGER NOT NULL REFERENCES beneficios(id),
	status               TEXT NOT NULL,
	grupo                TEXT NOT NULL,
	codigo               TEXT NOT NULL,
	descricao            TEXT NOT NULL,
	documentos_exigidos  TEXT NOT NULL DEFAULT '[]', -- JSON [tipo]
	responsavel          TEXT NOT NULL,
	resposta             TEXT NOT NULL DEFAULT '',
	autor                TEXT NOT NULL DEFAULT '',
	documentos           TEXT NOT NULL DEFAULT '[]', -- JSON [{tipo, nomeArquivo, formato, tamanho}] (content not kept)
	created_at           INTEGER NOT NULL,
	updated_at           INTEGER NOT NULL
);
CREATE INDEX beneficio_pendencias_beneficio ON beneficio_pendencias(beneficio_id, id);

CREATE TABLE beneficio_timeline (
	id           INTEGER PRIMARY KEY,
	beneficio_id INTEGER NOT NULL REFERENCES beneficios(id),
	at           INTEGER NOT NULL,
	status       TEXT NOT NULL,
	usuario      TEXT NOT NULL,
	descricao    TEXT NOT NULL,
	pendencia    INTEGER
);
CREATE INDEX beneficio_timeline_beneficio ON beneficio_timeline(beneficio_id, at, id);
