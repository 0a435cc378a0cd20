package wire

import (
	"context"

	"homologa/simulator/store"
)

// Read runs f in a read transaction and answers what it read.
func Read[T any](ctx context.Context, db *store.DB, f func(tx *store.Tx) (T, error)) (T, error) {
	return within(ctx, db.Read, f)
}

// Write runs f in a transaction and answers what it wrote.
func Write[T any](ctx context.Context, db *store.DB, f func(tx *store.Tx) (T, error)) (T, error) {
	return within(ctx, db.Tx, f)
}

func within[T any](ctx context.Context, run func(context.Context, func(*store.Tx) error) error, f func(tx *store.Tx) (T, error)) (T, error) {
	var out T
	err := run(ctx, func(tx *store.Tx) error {
		var err error
		out, err = f(tx)
		return err
	})
	return out, err
}

// Found is v, or notFound when the loader found none.
func Found[T any](v *T, err error) func(notFound error) (*T, error) {
	return func(notFound error) (*T, error) {
		if err == nil && v == nil {
			return nil, notFound
		}
		return v, err
	}
}

// Bodies answers items as the API writes them, each with body, the
// empty list (not null) when there is none.
func Bodies[T any](items []T, body func(T) map[string]any) []map[string]any {
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		out = append(out, body(it))
	}
	return out
}
