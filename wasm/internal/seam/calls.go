package seam

// Calls are the validation module's calls; each is an export pg_<name>
// (the export's argument is the input's length in bytes, its result the
// answer's, negative for a usage error). wasm/calls.go implements each as
// call<Name>(in, out) returning "" or the usage error's message.
type Calls interface {
	// The module's version (the loader's core.version).
	Version() VersionResult
	// Every field error of a request, or those of one field (on-input feedback).
	Validate(ValidateInput) Validated
	// The form body the edge forwards: values normalized, canonical (catalog) order.
	Encode(EncodeInput) Encoded
	// The form body of a request exactly as held (no operation, no normalization).
	EncodeForm(EncodeFormInput) Encoded
	// Checks and normalizes a postal code of a country.
	Postal(PostalInput) PostalResult
	// The approximate location of a postal code.
	Locate(LocateInput) Located
	// The Events-table entry of a tracking code.
	Describe(DescribeInput) Described
	// The operation catalog as JSON (catalog.Catalog).
	Catalog() CatalogResult
}

// DecoderCalls are the response decoder's calls (wasm/decoder, a second
// module the loader fetches on the first decode), exported as Calls' are.
// wasm/decoder implements each as call<Name>(in, out).
type DecoderCalls interface {
	// Decodes a {status, data} response: {ok: true, data} or {ok: false, error}, as JSON.
	Decode(DecodeInput) Decoded
}
