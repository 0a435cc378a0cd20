// Command refpartner runs Homologa's reference partner: a small Pix
// integration of the sandbox with one switchable defect, driven by the
// homologation runner over HTTP (see package homologa/harness/partner).
//
//	refpartner --addr 127.0.0.1:9100 --defect no-retry
package main
