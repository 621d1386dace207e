module github.com/parcelgate/parcelgate

go 1.25

require (
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/stretchr/testify v1.11.1
	github.com/syumai/workers v0.33.0
	github.com/tinylib/msgp v1.6.3
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
