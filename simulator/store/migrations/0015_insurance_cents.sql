-- Insurance money in integer cents, as the code keeps it (package money):
-- card pre-authorisations, proposals' totals, charges, commissions and
-- paid benefits were REAL reais. Each column is replaced in place (a new
-- INTEGER column takes the rounded cents, the REAL one goes, the new one
-- takes its name), so the foreign keys and indexes of these tables, and of
-- the tables that refer to them, stay as they are. Rates stay REAL:
-- comissoes.percentual and indices.valor are percentages.
--
-- Money inside the JSON documents stays in reais, as the API answers
-- them (an enrollment's body is answered as stored); an amount with more
-- than two decimals, which an older version could keep from a client's
-- value, is rounded to the cent so that it reads as cents exactly.

ALTER TABLE card_preauths ADD COLUMN valor_cents INTEGER NOT NULL DEFAULT 0;
UPDATE card_preauths SET valor_cents = CAST(ROUND(valor * 100) AS INTEGER);
ALTER TABLE card_preauths DROP COLUMN valor;
ALTER TABLE card_preauths RENAME COLUMN valor_cents TO valor;

ALTER TABLE propostas ADD COLUMN valor_total_cents INTEGER NOT NULL DEFAULT 0;
UPDATE propostas SET valor_total_cents = CAST(ROUND(valor_total * 100) AS INTEGER);
ALTER TABLE propostas DROP COLUMN valor_total;
ALTER TABLE propostas RENAME COLUMN valor_total_cents TO valor_total;

ALTER TABLE cobrancas ADD COLUMN valor_cents INTEGER NOT NULL DEFAULT 0;
UPDATE cobrancas SET valor_cents = CAST(ROUND(valor * 100) AS INTEGER);
ALTER TABLE cobrancas DROP COLUMN valor;
ALTER TABLE cobrancas RENAME COLUMN valor_cents TO valor;

ALTER TABLE comissoes ADD COLUMN valor_cents INTEGER NOT NULL DEFAULT 0;
UPDATE comissoes SET valor_cents = CAST(ROUND(valor * 100) AS INTEGER);
ALTER TABLE comissoes DROP COLUMN valor;
ALTER TABLE comissoes RENAME COLUMN valor_cents TO valor;

ALTER TABLE beneficios ADD COLUMN valor_cents INTEGER NOT NULL DEFAULT 0;
UPDATE beneficios SET valor_cents = CAST(ROUND(valor * 100) AS INTEGER);
ALTER TABLE beneficios DROP COLUMN valor;
ALTER TABLE beneficios RENAME COLUMN valor_cents TO valor;

-- An enrollment's premium and its coverages' capitals and premiums.
UPDATE inscricoes SET body = json_set(body, '$.valorContribuicao', ROUND(json_extract(body, '$.valorContribuicao'), 2))
WHERE json_type(body, '$.valorContribuicao') = 'real'
	AND json_extract(body, '$.valorContribuicao') != ROUND(json_extract(body, '$.valorContribuicao'), 2);

UPDATE inscricoes SET body = json_set(body, '$.coberturas', json((
	SELECT json_group_array(json_set(c.value,
		'$.capitalSegurado', CASE WHEN json_type(c.value, '$.capitalSegurado') = 'real'
			THEN ROUND(json_extract(c.value, '$.capitalSegurado'), 2) ELSE json_extract(c.value, '$.capitalSegurado') END,
		'$.premio', CASE WHEN json_type(c.value, '$.premio') = 'real'
			THEN ROUND(json_extract(c.value, '$.premio'), 2) ELSE json_extract(c.value, '$.premio') END) ORDER BY c.key)
	FROM json_each(inscricoes.body, '$.coberturas') c)))
WHERE EXISTS (SELECT 1 FROM json_each(inscricoes.body, '$.coberturas') c
	WHERE json_extract(c.value, '$.capitalSegurado') != ROUND(json_extract(c.value, '$.capitalSegurado'), 2)
		OR json_extract(c.value, '$.premio') != ROUND(json_extract(c.value, '$.premio'), 2));

-- A benefit's claimed capitals and the amounts paid to its recipients.
UPDATE beneficios SET coberturas = json((
	SELECT json_group_array(json_set(c.value, '$.capitalSegurado', CASE WHEN json_type(c.value, '$.capitalSegurado') = 'real'
		THEN ROUND(json_extract(c.value, '$.capitalSegurado'), 2) ELSE json_extract(c.value, '$.capitalSegurado') END) ORDER BY c.key)
	FROM json_each(beneficios.coberturas) c))
WHERE EXISTS (SELECT 1 FROM json_each(beneficios.coberturas) c
	WHERE json_extract(c.value, '$.capitalSegurado') != ROUND(json_extract(c.value, '$.capitalSegurado'), 2));

UPDATE beneficios SET beneficiarios = json((
	SELECT json_group_array(json_set(c.value, '$.valor', CASE WHEN json_type(c.value, '$.valor') = 'real'
		THEN ROUND(json_extract(c.value, '$.valor'), 2) ELSE json_extract(c.value, '$.valor') END) ORDER BY c.key)
	FROM json_each(beneficios.beneficiarios) c))
WHERE EXISTS (SELECT 1 FROM json_each(beneficios.beneficiarios) c
	WHERE json_extract(c.value, '$.valor') != ROUND(json_extract(c.value, '$.valor'), 2));
