// Command ceiling is the ceiling for the load figures: a hello-world net/http
// handler on the same machine.
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18099", "listen address")
	flag.Parse()
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"hello":"world"}`))
	})
	log.Fatal(http.ListenAndServe(*addr, nil))
}
