package edgeclient

//go:generate go run ./gen
