package envelope

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// The interpreter of the generated member tables (wire_gen.go). Each wire
// struct is described once, as static data: its members in wire order, how
// each travels (wkind) and where it lives in the struct (its offset). One
// decoder and one emitter read every struct through its table, instead of a
// decoding closure and an emitter generated per type: the same behaviour in
// a fraction of the code, which both WebAssembly modules pay for (the edge's
// core and the browser's decoder). Offsets come from unsafe.Offsetof in the
// generated tables, so they are right for every compiler and target; the
// pointers the interpreter forms always stay inside the struct they come
// from (unsafe.Pointer rule 3), and every pointer it stores is written
// through a field of pointer type, so the garbage collectors see them.

// wkind is how one member is read and written.
type wkind uint8

const (
	wString    wkind = iota // string: readString, kStr
	wInt                    // int: readInt, kInt
	wInt64                  // int64: readInt64 (readInt64Seen with fSeen), kInt
	wFloat64                // float64: readFloat64 (readFloat64Seen with fSeen), kFloat
	wBool                   // bool: readBool, kBool
	wDate                   // string as=date: readDate, writeDate
	wText                   // string as=text: readText, writeText
	wCode                   // int as=code: readCode, writeCode
	wRaw                    // []byte as=raw: readRaw, writeRaw
	wRawObject              // []byte as=rawObject: readRawObject, writeRawObject
	wPdf                    // []byte as=pdf: readPdf, writePdf
	wStruct                 // a wire struct (sub), or a hook type (sub.dec, sub.emit)
	wEmbed                  // an embedded wire struct: its members inline (sub)
	wPtr                    // *T of a wire struct or hook (sub), or of a scalar (elem): empty is nil
	wSlice                  // []T of wire structs or hooks (sub)
)

// Member flags.
const (
	fRequired   uint8 = 1 << iota // absent is an error naming the key
	fOmitEmpty                    // not written when zero
	fEmitOnly                     // written; read and ignored (a derived value)
	fWriteOnly                    // written; on read an unknown member (kept in Extra)
	fSeen                         // seen: the bool set when a number was given
	fNullUnless                   // set: the bool without which the member is written as null
)

// noOffset marks a type without Extra or without a prefix field.
const noOffset = ^uintptr(0)

// wfield is one member of a wire struct: 20 bytes on wasm32, the rare
// parts in x (most members have none), offsets in 16 bits (a wire struct
// is far smaller than 64 KB).
type wfield struct {
	key   string  // the wire key (after the struct's prefix, if any)
	sub   *wtype  // wStruct, wEmbed, wPtr, wSlice: the element's type
	x     *wextra // alias, prefix, seen, set or elem, when the member has one
	off   uint16  // the member's offset in the struct
	kind  wkind
	flags uint8
}

// wextra holds the parts of a wfield that few members have.
type wextra struct {
	alias  string // another key read into the member, or ""
	prefix string // wStruct of a prefixed struct: the prefix forced on read and write
	seen   uint16 // fSeen: the offset of the bool set when a number was given
	set    uint16 // fNullUnless: the offset of the bool without which it is null
	elem   wkind  // wPtr without sub: the scalar pointed to
}

// noExtra is the wextra of a member without one.
var noExtra wextra

// ext returns f's wextra (noExtra when it has none).
func (f *wfield) ext() *wextra {
	if f.x == nil {
		return &noExtra
	}
	return f.x
}

// wtype is a wire struct's table, or a hook type's functions.
type wtype struct {
	fields   []wfield
	prefixes []string // a prefixed struct: the prefixes its keys may carry
	prefix   uintptr  // a prefixed struct: the offset of its prefix string
	extra    uintptr  // the offset of the RawMembers keeping unknown members, or noOffset
	size     uintptr  // elements of slices: the size of one
	required bool     // a member is fRequired (the decoder then tracks what it read)
	// after is the type's afterDecode, or nil.
	after func(p unsafe.Pointer)
	// newElem appends a zero element to the []T at p and returns it (slices).
	newElem func(p unsafe.Pointer) unsafe.Pointer
	// reserve makes room for n elements in the empty []T at p: set for
	// the lists that come by the thousand (drop points).
	reserve func(p unsafe.Pointer, n int)
	// alloc returns a new zero T (pointers).
	alloc func() unsafe.Pointer
	// dec and emit are a hook type's hand-written decode and EmitTo (nil for
	// wire structs, which the interpreter reads through fields).
	dec  func(s *jsonlite.Scanner, p unsafe.Pointer) error
	emit func(e jsonlite.Emitter, p unsafe.Pointer)
}

// newOf is a wtype's alloc for T.
func newOf[T any]() unsafe.Pointer { return unsafe.Pointer(new(T)) }

// appendOf is a wtype's newElem for T.
func appendOf[T any](p unsafe.Pointer) unsafe.Pointer {
	l := (*[]T)(p)
	var zero T
	*l = append(*l, zero)
	return unsafe.Pointer(&(*l)[len(*l)-1])
}

// sliceHeader is the layout of every Go slice (gc and TinyGo alike).
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// decodeStruct reads the object at the Scanner into the struct at p:
// known members through t, unknown ones kept in Extra, required members
// checked, then the afterDecode hooks (embedded structs' first).
func decodeStruct(s *jsonlite.Scanner, p unsafe.Pointer, t *wtype) error {
	d := &structDecoder{s: s, p: p, t: t}
	err := obj(s, d.member)
	if err == nil && t.required {
		for i := range t.fields {
			if f := &t.fields[i]; f.flags&fRequired != 0 && d.seen&(1<<uint(i)) == 0 {
				err = missing(f.key)
				break
			}
		}
	}
	runAfter(p, t)
	return err
}

// structDecoder is the state of decodeStruct's member callback, in one
// allocation: a closure would capture each variable in its own.
type structDecoder struct {
	s    *jsonlite.Scanner
	p    unsafe.Pointer
	t    *wtype
	seen uint64 // the members read, by index in t.fields (a type with required members)
}

// member reads the member key of the object being decoded.
func (d *structDecoder) member(key string) error {
	s, p, t := d.s, d.p, d.t
	name := key
	if t.prefixes != nil {
		var prefix string
		prefix, name = cutPrefix(key, t.prefixes...)
		if own := (*string)(unsafe.Add(p, t.prefix)); *own == "" {
			*own = prefix
		}
	}
	var seen *uint64
	if t.required {
		seen = &d.seen
	}
	if ok, err := decodeMember(s, p, t, name, seen); ok {
		return err
	}
	if t.extra != noOffset {
		return (*RawMembers)(unsafe.Add(p, t.extra)).keep(s, key)
	}
	return nil
}

// decodeMember reads the member name into the struct at p when it is one
// of t's known members (its own first, then those of embedded structs in
// order) and reports whether it was; seen, when not nil, records which.
func decodeMember(s *jsonlite.Scanner, p unsafe.Pointer, t *wtype, name string, seen *uint64) (bool, error) {
	for i := range t.fields {
		f := &t.fields[i]
		if f.kind == wEmbed || f.flags&fWriteOnly != 0 || (name != f.key && (f.ext().alias == "" || name != f.ext().alias)) {
			continue
		}
		if seen != nil {
			*seen |= 1 << uint(i)
		}
		if f.flags&fEmitOnly != 0 {
			return true, nil // derived: written, never read
		}
		return true, decodeField(s, p, f)
	}
	for i := range t.fields {
		if f := &t.fields[i]; f.kind == wEmbed {
			if ok, err := decodeMember(s, unsafe.Add(p, f.off), f.sub, name, nil); ok {
				return true, err
			}
		}
	}
	return false, nil
}

// runAfter runs the afterDecode hooks of the struct at p, embedded
// structs' first.
func runAfter(p unsafe.Pointer, t *wtype) {
	for i := range t.fields {
		if f := &t.fields[i]; f.kind == wEmbed {
			runAfter(unsafe.Add(p, f.off), f.sub)
		}
	}
	if t.after != nil {
		t.after(p)
	}
}

// decodeField reads the value of member f of the struct at p.
func decodeField(s *jsonlite.Scanner, p unsafe.Pointer, f *wfield) error {
	q := unsafe.Add(p, f.off)
	switch f.kind {
	case wInt64:
		if f.flags&fSeen != 0 {
			return readInt64Seen(s, (*int64)(q), (*bool)(unsafe.Add(p, f.x.seen)))
		}
	case wFloat64:
		if f.flags&fSeen != 0 {
			return readFloat64Seen(s, (*float64)(q), (*bool)(unsafe.Add(p, f.x.seen)))
		}
	case wStruct:
		if prefix := f.ext().prefix; prefix != "" {
			*(*string)(unsafe.Add(q, f.sub.prefix)) = prefix
		}
		return decodeValue(s, q, f.sub)
	case wPtr:
		if empty(s) {
			*(*unsafe.Pointer)(q) = nil
			return nil
		}
		if f.sub == nil {
			x := scalarAlloc(f.x.elem)
			*(*unsafe.Pointer)(q) = x
			return decodeScalar(s, x, f.x.elem)
		}
		x := f.sub.alloc()
		*(*unsafe.Pointer)(q) = x
		return decodeValue(s, x, f.sub)
	case wSlice:
		*(*sliceHeader)(q) = sliceHeader{}
		return decodeSlice(s, q, f.sub)
	}
	return decodeScalar(s, q, f.kind)
}

// decodeScalar reads a value of a scalar kind (wString to wPdf) into q.
func decodeScalar(s *jsonlite.Scanner, q unsafe.Pointer, k wkind) error {
	switch k {
	case wString:
		return readString(s, (*string)(q))
	case wInt:
		return readInt(s, (*int)(q))
	case wInt64:
		return readInt64(s, (*int64)(q))
	case wFloat64:
		return readFloat64(s, (*float64)(q))
	case wBool:
		return readBool(s, (*bool)(q))
	case wDate:
		return readDate(s, (*string)(q))
	case wText:
		return readText(s, (*string)(q))
	case wCode:
		return readCode(s, (*int)(q))
	case wRaw:
		return readRaw(s, (*[]byte)(q))
	case wRawObject:
		return readRawObject(s, (*[]byte)(q))
	case wPdf:
		return readPdf(s, (*[]byte)(q))
	}
	panic("envelope: no scalar kind") // unreachable: the generator writes only the kinds above
}

// scalarAlloc returns a new zero value of a scalar kind, for a pointer.
func scalarAlloc(k wkind) unsafe.Pointer {
	switch k {
	case wString, wDate, wText:
		return unsafe.Pointer(new(string))
	case wInt, wCode:
		return unsafe.Pointer(new(int))
	case wInt64:
		return unsafe.Pointer(new(int64))
	case wFloat64:
		return unsafe.Pointer(new(float64))
	case wBool:
		return unsafe.Pointer(new(bool))
	}
	return unsafe.Pointer(new([]byte))
}

// decodeValue reads a value of type t (a wire struct or a hook) into p.
func decodeValue(s *jsonlite.Scanner, p unsafe.Pointer, t *wtype) error {
	if t.dec != nil {
		return t.dec(s, p)
	}
	return decodeStruct(s, p, t)
}

// decodeSlice appends the elements of the array at the Scanner to the
// []T at p (T described by t).
func decodeSlice(s *jsonlite.Scanner, p unsafe.Pointer, t *wtype) error {
	if t.reserve != nil && (*sliceHeader)(p).cap == 0 {
		// Room for as many as the rest of the body could hold at 256 bytes
		// each (a drop point is 300 to 400): appended one at a time, a
		// megabyte of drop points grew through copies to about three times
		// its size (TinyGo doubles to the next power of two); this is at
		// most that last power's room, once. (Set for one type: counting
		// the elements first, or a reserve per type, cost the edge
		// module's upload 150 to 370 bytes gzip.)
		t.reserve(p, (len(s.Source())-s.Offset())/256)
	}
	d := &structDecoder{s: s, p: p, t: t}
	return arr(s, d.element)
}

// element reads the next element of the array being decoded into the
// slice at d.p.
func (d *structDecoder) element(int) error {
	return decodeValue(d.s, d.t.newElem(d.p), d.t)
}

// emitStruct writes the struct at p: its known members in table order,
// then the unknown ones it kept. prefix, when not "", is forced on a
// prefixed struct's keys.
func emitStruct(e jsonlite.Emitter, p unsafe.Pointer, t *wtype, prefix string) {
	e.BeginObject()
	emitFields(e, p, t, prefix)
	if t.extra != noOffset {
		(*RawMembers)(unsafe.Add(p, t.extra)).emitMembers(e)
	}
	e.EndObject()
}

// emitFields writes the known members of the struct at p, embedded
// structs inlined.
func emitFields(e jsonlite.Emitter, p unsafe.Pointer, t *wtype, prefix string) {
	if t.prefixes != nil && prefix == "" {
		prefix = *(*string)(unsafe.Add(p, t.prefix))
	}
	for i := range t.fields {
		f := &t.fields[i]
		q := unsafe.Add(p, f.off)
		if f.kind == wEmbed {
			emitFields(e, q, f.sub, "")
			continue
		}
		if f.flags&fOmitEmpty != 0 && isZero(q, f) {
			continue
		}
		key := f.key
		if t.prefixes != nil {
			key = prefix + key
		}
		if f.flags&fNullUnless != 0 && !*(*bool)(unsafe.Add(p, f.x.set)) {
			kNull(e, key)
			continue
		}
		emitField(e, q, f, key)
	}
}

// emitField writes member f, whose value is at q, under key.
func emitField(e jsonlite.Emitter, q unsafe.Pointer, f *wfield, key string) {
	switch f.kind {
	case wStruct:
		e.Key(key)
		emitValue(e, q, f.sub, f.ext().prefix)
	case wPtr:
		x := *(*unsafe.Pointer)(q)
		switch {
		case x == nil:
			kNull(e, key)
		case f.sub == nil:
			emitScalar(e, x, f.x.elem, key)
		default:
			e.Key(key)
			emitValue(e, x, f.sub, "")
		}
	case wSlice:
		e.Key(key)
		emitSlice(e, q, f.sub)
	default:
		emitScalar(e, q, f.kind, key)
	}
}

// emitScalar writes a member of a scalar kind (wString to wPdf).
func emitScalar(e jsonlite.Emitter, q unsafe.Pointer, k wkind, key string) {
	switch k {
	case wString:
		kStr(e, key, *(*string)(q))
	case wInt:
		kInt(e, key, int64(*(*int)(q)))
	case wInt64:
		kInt(e, key, *(*int64)(q))
	case wFloat64:
		kFloat(e, key, *(*float64)(q))
	case wBool:
		kBool(e, key, *(*bool)(q))
	case wDate:
		writeDate(e, key, *(*string)(q))
	case wText:
		writeText(e, key, *(*string)(q))
	case wCode:
		writeCode(e, key, *(*int)(q))
	case wRaw:
		writeRaw(e, key, *(*[]byte)(q))
	case wRawObject:
		writeRawObject(e, key, *(*[]byte)(q))
	case wPdf:
		writePdf(e, key, *(*[]byte)(q))
	}
}

// emitValue writes a value of type t (a wire struct or a hook) at p.
func emitValue(e jsonlite.Emitter, p unsafe.Pointer, t *wtype, prefix string) {
	if t.emit != nil {
		t.emit(e, p)
		return
	}
	emitStruct(e, p, t, prefix)
}

// emitSlice writes the []T at p as an array (T described by t).
func emitSlice(e jsonlite.Emitter, p unsafe.Pointer, t *wtype) {
	h := (*sliceHeader)(p)
	e.BeginArray()
	for i := 0; i < h.len; i++ {
		emitValue(e, unsafe.Add(h.data, uintptr(i)*t.size), t, "")
	}
	e.EndArray()
}

// isZero reports whether member f, whose value is at q, is its zero
// value (omitempty).
func isZero(q unsafe.Pointer, f *wfield) bool {
	switch f.kind {
	case wString, wDate, wText:
		return *(*string)(q) == ""
	case wInt, wCode:
		return *(*int)(q) == 0
	case wInt64:
		return *(*int64)(q) == 0
	case wFloat64:
		return *(*float64)(q) == 0
	case wBool:
		return !*(*bool)(q)
	case wPtr:
		return *(*unsafe.Pointer)(q) == nil
	case wRaw, wRawObject, wPdf, wSlice:
		return (*sliceHeader)(q).len == 0
	}
	return false // structs are always written
}
