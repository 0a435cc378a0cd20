module github.com/cucumber/godog

go 1.16

require (
	github.com/cucumber/gherkin/go/v26 v26.2.0
	github.com/hashicorp/go-memdb v1.3.4
	github.com/spf13/cobra v1.7.0
	github.com/spf13/pflag v1.0.7
	github.com/stretchr/testify v1.8.2
)

require (
	github.com/cucumber/messages/go/v21 v21.0.1
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-uuid v1.0.2 // indirect
	gopkg.in/check.v1 v1.0.0-20201130134442-10cb98267c6c // indirect
)
