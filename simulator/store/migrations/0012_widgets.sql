-- Widgets: the forms widget's questionnaire answers and the credit-card
-- widget's retry test card.

-- Answers are keyed by proposal number, which may be one only reserved
-- (POST /proposals/{codigo}/next-number): the questionnaire is answered
-- before the proposal is sent, so there is no foreign key to propostas.
CREATE TABLE questionario_respostas (
	numero          INTEGER NOT NULL,
	questionario_id INTEGER NOT NULL,
	company_id      TEXT NOT NULL,
	offer_id        TEXT NOT NULL,
	respostas       TEXT NOT NULL,          -- JSON [{perguntaId, tipoResposta, valor}], checked against the catalogue
	autor           TEXT NOT NULL,
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL,
	PRIMARY KEY (numero, questionario_id)
);

-- A company whose last attempt with the retry test card was refused: the
-- next attempt approves and deletes the row. Only the published test
-- card's last four digits are kept, as for card_preauths.
CREATE TABLE card_retries (
	company_id TEXT NOT NULL,
	final      TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (company_id, final)
);
