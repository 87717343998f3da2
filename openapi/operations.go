package openapi

import (
	"slices"
	"sync"
)

// Operation is one operation of the document: its method, its path
// template (with the document's parameter names, such as
// "/gh/{ownerKeyOrId}/projects/{projectKeyOrId}") and its operation id.
//
// The endpoint tables of this package are the one list of Plumb's
// documented routes: the api package's route table names each route by its
// operation id and takes the method and path from here.
type Operation struct {
	ID, Method, Path string
}

// v1Endpoints is every operation of the paths object built by paths, in
// document order, but the qlty CLI's (qltyEndpoints, added after them).
func v1Endpoints() []endpoint {
	return slices.Concat(endpoints, surfaceEndpoints, pullEndpoints, gateEndpoints, codeHostEndpoints, sourceEndpoints, ingestEndpoints, pullIngestEndpoints)
}

var operations = sync.OnceValue(func() []Operation {
	var ops []Operation
	for _, ep := range slices.Concat(v1Endpoints(), qltyEndpoints) {
		ops = append(ops, Operation{ID: ep.id, Method: ep.method, Path: ep.path})
	}
	return ops
})

// Operations lists every operation of the document, in table order.
func Operations() []Operation { return slices.Clone(operations()) }

// Lookup finds the operation with the given id.
func Lookup(id string) (Operation, bool) {
	i := slices.IndexFunc(operations(), func(o Operation) bool { return o.ID == id })
	if i < 0 {
		return Operation{}, false
	}
	return operations()[i], true
}
