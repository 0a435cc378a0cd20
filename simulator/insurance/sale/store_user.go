package sale

import (
	"context"
	"strings"
	"time"

	"homologa/simulator/store"
)

func insertUser(ctx context.Context, tx *store.Tx, u *user) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO access_users (company_id, username, document, email, name, cellphone, active, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, u.CompanyID, u.Username, u.Document, u.Email, u.Name, u.Cellphone, u.Active, u.CreatedAt.UnixNano())
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return errUserExists
	}
	return err
}

// loadUser reads the company's user username; nil when it has none.
func loadUser(ctx context.Context, tx *store.Tx, companyID, username string) (*user, error) {
	u := user{CompanyID: companyID}
	var created int64
	err := tx.QueryRowContext(ctx, `SELECT username, document, email, name, cellphone, active, created_at FROM access_users WHERE company_id = ? AND username = ?`,
		companyID, username).Scan(&u.Username, &u.Document, &u.Email, &u.Name, &u.Cellphone, &u.Active, &created)
	u.CreatedAt = time.Unix(0, created).UTC()
	return store.Maybe(&u, err)
}
