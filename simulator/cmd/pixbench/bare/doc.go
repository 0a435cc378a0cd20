// Command bare is pixbench's baseline: a bare net/http server that reads
// each request's body and answers the bytes the sandbox answered (PUT:
// 201 and the created charge; anything else: 200 and the charge read),
// the least any server must do. It is a command of its own, importing
// nothing of the sandbox, so that its start and its RSS are a bare
// server's too.
package main
