package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	dir := flag.String("dir", "", "folder with the answers: GET, PUT and content-type")
	flag.Parse()
	read := func(name string) []byte {
		b, _ := os.ReadFile(filepath.Join(*dir, name))
		return b
	}
	getBody, putBody, ct := read("GET"), read("PUT"), string(read("content-type"))
	index := []byte(`{"name":"bare"}`)
	err := http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", ct)
		switch {
		case r.URL.Path == "/":
			w.Write(index)
		case r.Method == http.MethodPut:
			w.WriteHeader(http.StatusCreated)
			w.Write(putBody)
		default:
			w.Write(getBody)
		}
	}))
	fmt.Fprintln(os.Stderr, "bare:", err)
	os.Exit(1)
}
