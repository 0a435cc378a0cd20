// Package store is the SQLite database of the sandbox (mattn/go-sqlite3,
// one connection): opening it (in memory or a file), applying the embedded
// migrations, running read and write transactions with hooks after commit,
// the generic row helpers every domain's store files use, and making ids.
// A domain's SQL lives in its own store_x.go files, never here.
package store
