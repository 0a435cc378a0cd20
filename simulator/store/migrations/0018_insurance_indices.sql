-- Index tables are per company: a company's values (set with its app's
-- token) override the sandbox's table for its own readjustments only;
-- company_id '' is the sandbox's table (the shipped months and what the
-- operator set), which every company without a value of its own reads.
-- The months set before are the sandbox's: they were read by every
-- company.
CREATE TABLE indices_new (
	company_id TEXT NOT NULL DEFAULT '',
	indice     TEXT NOT NULL,
	mes        TEXT NOT NULL,              -- YYYY-MM
	valor      REAL NOT NULL,
	PRIMARY KEY (company_id, indice, mes)
);
INSERT INTO indices_new (indice, mes, valor) SELECT indice, mes, valor FROM indices;
DROP TABLE indices;
ALTER TABLE indices_new RENAME TO indices;
