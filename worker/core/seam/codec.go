package seam

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// The codec reads and writes every type of the seam from its descriptor
// (wire_gen.go: a Type per struct, its members' JSON names, kinds and
// offsets), so the module carries one small interpreter and tables rather
// than a decoder and an encoder per type: code per type cost the edge
// upload about 6 KB gzip, over its budget. No reflection: the generator
// writes the offsets with unsafe.Offsetof.

// Flags of members.
const (
	fOmit     = 1 << iota // omitempty: a zero value is not written
	fNullable             // a raw part that is null when nil
)

// Type describes a struct of the seam: its members are
// fields[first:first+n].
type Type struct {
	first uint16
	n     uint8
	// union is the index of the member whose value picks the variant (-1:
	// not a union); variants are those values, variants[variants:][:nvariants];
	// bit i of a member's mask for the i-th (mask 0: a member of every variant).
	union     int8
	variants  uint8
	nvariants uint8
	// raw: a value carries a raw part (its own or a member's).
	raw bool
	// alloc makes a value (for pointer members); appendTo appends a zero
	// value to the slice at p and returns the new element (for lists).
	size     uintptr
	alloc    func() unsafe.Pointer
	appendTo func(p unsafe.Pointer) unsafe.Pointer
}

// member is one member of a Type, packed by the generator: bits 0-15 its
// offset, 16-31 and 32-39 its JSON name in names (offset, length), 40-43
// its kind, 44-45 its flags, 48-55 its variant mask, 56-63 its type in
// types (structs). A table of words rather than of structs with strings
// and pointers: less than half the bytes in the module.
type member uint64

func (f member) off() uintptr { return uintptr(uint16(f)) }

func (f member) name() string { return text(uint32(f >> 16)) }

func (f member) kind() uint8 { return uint8(f>>40) & 15 }

func (f member) flags() uint8 { return uint8(f>>44) & 3 }

func (f member) mask() uint8 { return uint8(f >> 48) }

func (f member) sub() *Type { return &types[uint8(f>>56)] }

// text is the string of names at a packed offset and length.
func text(at uint32) string {
	start := at & 0xffff
	return names[start : start+at>>16&0xff]
}

func (t *Type) members() []member { return fields[t.first : int(t.first)+int(t.n)] }

// decoding is one object being decoded. Its member method is the
// scanner's callback: a closure over decode's arguments made TinyGo
// allocate each argument and the closure (four allocations an object),
// this one allocation.
type decoding struct {
	s *jsonlite.Scanner
	p unsafe.Pointer
	t *Type
	// next is where the search for the next key starts: the wrapper sends
	// members mostly in the declared order, so one comparison usually finds
	// the member.
	next int
}

func decode(s *jsonlite.Scanner, p unsafe.Pointer, t *Type) error {
	d := &decoding{s: s, p: p, t: t}
	return object(s, d.member)
}

func (d *decoding) member(k string) error {
	fs := d.t.members()
	for i := range fs {
		j := d.next + i
		if j >= len(fs) {
			j -= len(fs)
		}
		if f := fs[j]; f.name() == k {
			d.next = j + 1
			return decodeMember(d.s, unsafe.Add(d.p, f.off()), f)
		}
	}
	return d.s.Skip()
}

func decodeMember(s *jsonlite.Scanner, q unsafe.Pointer, f member) error {
	switch f.kind() {
	case kString, kEnum:
		return readString(s, (*string)(q))
	case kRawText:
		return readRaw(s, (*string)(q))
	case kStringPtr:
		return readStringPtr(s, (**string)(q))
	case kBool:
		return readBool(s, (*bool)(q))
	case kInt:
		return readInt(s, (*int64)(q))
	case kIntPtr:
		if s.Peek() != jsonlite.Number {
			*(**int64)(q) = nil
			return s.Skip()
		}
		n := new(int64)
		*(**int64)(q) = n
		return readInt(s, n)
	case kStruct:
		return decode(s, q, f.sub())
	case kStructPtr:
		if s.Peek() != jsonlite.Object {
			*(*unsafe.Pointer)(q) = nil
			return s.Skip()
		}
		n := f.sub().alloc()
		*(*unsafe.Pointer)(q) = n
		return decode(s, n, f.sub())
	case kStrings:
		return readStrings(s, (*[]string)(q))
	case kInts:
		return readInts(s, (*[]int64)(q))
	case kStructs:
		return decodeStructs(s, q, f.sub())
	case kPairs:
		return readPairs(s, (*Pairs)(q))
	}
	// kRaw travels apart; kFloat is in answers only: reading one would
	// link jsonlite's float parser (~17 KB, args.go kept it out too).
	return s.Skip()
}

// decodeStructs reads a list of structs of type t into the slice at q
// (a function of its own: its closure in decodeMember made TinyGo
// allocate decodeMember's arguments on every call, whatever the kind).
func decodeStructs(s *jsonlite.Scanner, q unsafe.Pointer, t *Type) error {
	if s.Peek() != jsonlite.Array {
		return s.Skip()
	}
	return s.Array(func(int) error { return decode(s, t.appendTo(q), t) })
}

func encode(w *Writer, p unsafe.Pointer, t *Type, at string) {
	w.BeginObject()
	encodeMembers(w, p, t, at)
	w.EndObject()
}

func encodeMembers(w *Writer, p unsafe.Pointer, t *Type, at string) {
	fs := t.members()
	active := uint8(0xff)
	if t.union >= 0 {
		v := *(*string)(unsafe.Add(p, fs[t.union].off()))
		active = 0
		for i, val := range variants[t.variants : t.variants+t.nvariants] {
			if text(val) == v {
				active = 1 << i
			}
		}
	}
	for _, f := range fs {
		if m := f.mask(); m != 0 && m&active == 0 {
			continue
		}
		encodeMember(w, unsafe.Add(p, f.off()), f, at)
	}
}

func encodeMember(w *Writer, q unsafe.Pointer, f member, at string) {
	omit := f.flags()&fOmit != 0
	switch f.kind() {
	case kString, kEnum:
		if v := *(*string)(q); !omit || v != "" {
			writeString(w, f.name(), v)
		}
		return
	case kBool:
		if v := *(*bool)(q); !omit || v {
			writeBool(w, f.name(), v)
		}
		return
	case kInt:
		if v := *(*int64)(q); !omit || v != 0 {
			writeInt(w, f.name(), v)
		}
		return
	case kStructPtr:
		if omit && *(*unsafe.Pointer)(q) == nil {
			return
		}
	case kRaw:
		b := *(*[]byte)(q)
		if b == nil && f.flags()&fNullable != 0 {
			w.Key(f.name())
			w.Null()
		} else {
			w.raw(at+f.name(), b)
		}
		return
	}
	w.Key(f.name())
	switch f.kind() {
	case kRawText:
		if v := *(*string)(q); v == "" {
			w.Null()
		} else {
			w.Raw([]byte(v))
		}
	case kStringPtr:
		if v := *(**string)(q); v == nil {
			w.Null()
		} else {
			w.String(*v)
		}
	case kIntPtr:
		if v := *(**int64)(q); v == nil {
			w.Null()
		} else {
			w.Int(*v)
		}
	case kFloat:
		w.Float(*(*float64)(q))
	case kStruct:
		encode(w, q, f.sub(), subAt(at, f))
	case kStructPtr:
		if v := *(*unsafe.Pointer)(q); v == nil {
			w.Null()
		} else {
			encode(w, v, f.sub(), subAt(at, f))
		}
	case kStrings:
		writeStrings(w, *(*[]string)(q))
	case kInts:
		writeInts(w, *(*[]int64)(q))
	case kStructs:
		hdr := (*struct {
			data unsafe.Pointer
			n    int
		})(q)
		w.BeginArray()
		for i := 0; i < hdr.n; i++ {
			encode(w, unsafe.Add(hdr.data, uintptr(i)*f.sub().size), f.sub(), "")
		}
		w.EndArray()
	case kPairs:
		writePairs(w, *(*Pairs)(q))
	}
}

// subAt is the raw parts' path prefix inside member f.
func subAt(at string, f member) string {
	if !f.sub().raw {
		return ""
	}
	return at + f.name() + "."
}

// decodeCall reads a call's input into the value at p. The strings it
// decodes are in's bytes, not copies (as a raw part already is): the
// value is done with when the call returns, except configure's, whose
// strings the Edge keeps: that input alone is copied. Copying every input
// was about a tenth of a read's time in the core.
func decodeCall(in []byte, p unsafe.Pointer, t *Type) {
	src := unsafe.String(unsafe.SliceData(in), len(in))
	if t == &types[tConfigureInput] {
		src = string(in)
	}
	_ = decode(jsonlite.NewScannerString(src), p, t)
}

// encodeCall writes a call's answer from the value at p.
func encodeCall(w *Writer, p unsafe.Pointer, t *Type) {
	w.BeginObject()
	encodeMembers(w, p, t, "")
	w.end()
}
