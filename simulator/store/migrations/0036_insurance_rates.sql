-- Insurance rates exact, as the code keeps them (money.Rate; decision
-- record 0029): a commission's percentual and an index's monthly values
-- were REAL percentages, and become INTEGER counts of 10⁻⁸ percent. Each
-- column is replaced in place, as 0015 did for money, so the tables'
-- keys and indexes stay as they are. A REAL held the nearest binary
-- fraction of a decimal of at most eight places (the sandbox's rules,
-- and the index values a partner or the operator set through the control
-- API, which reads at most eight), so ten to the eighth times it, rounded,
-- is that decimal exactly.
--
-- Nothing else stored holds a float: money is integer cents (0015), and
-- the JSON documents (an enrollment's body, a paid benefit's
-- beneficiaries with their two-place percentages, events) keep numbers
-- as text, which the code reads exactly.

ALTER TABLE comissoes ADD COLUMN percentual_e8 INTEGER NOT NULL DEFAULT 0;
UPDATE comissoes SET percentual_e8 = CAST(ROUND(percentual * 100000000) AS INTEGER);
ALTER TABLE comissoes DROP COLUMN percentual;
ALTER TABLE comissoes RENAME COLUMN percentual_e8 TO percentual;

ALTER TABLE indices ADD COLUMN valor_e8 INTEGER NOT NULL DEFAULT 0;
UPDATE indices SET valor_e8 = CAST(ROUND(valor * 100000000) AS INTEGER);
ALTER TABLE indices DROP COLUMN valor;
ALTER TABLE indices RENAME COLUMN valor_e8 TO valor;
