-- Batches of due-date charges (LoteCobV). An item's txid is unique per
-- receiver: a cobv of a batch can join no other batch.
CREATE TABLE pix_lotes (
	company_id TEXT NOT NULL,
	id         INTEGER NOT NULL,
	app_id     TEXT NOT NULL,
	descricao  TEXT NOT NULL,
	host       TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (company_id, id)
);
CREATE INDEX pix_lotes_list ON pix_lotes(company_id, created_at);

CREATE TABLE pix_lote_items (
	company_id TEXT NOT NULL,
	lote_id    INTEGER NOT NULL,
	position   INTEGER NOT NULL,
	txid       TEXT NOT NULL,
	status     TEXT NOT NULL,      -- EM_PROCESSAMENTO | CRIADA | NEGADA
	problema   TEXT NOT NULL DEFAULT '',
	request    TEXT NOT NULL,
	created_at INTEGER,
	PRIMARY KEY (company_id, txid)
);
CREATE INDEX pix_lote_items_lote ON pix_lote_items(company_id, lote_id, position);
