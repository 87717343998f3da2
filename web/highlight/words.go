package highlight

import (
	"strings"
	"sync"

	"github.com/plumbhq/plumb/analyze/token"
)

// words are one language's reserved words, each with its class, and how
// its identifiers read.
type words struct {
	byWord       map[string]string
	foldCase     bool // PHP: keywords in any case
	preprocessor bool // C family: # at a line's start begins a directive
	dollarVars   bool // PHP, shell: $name is a variable
	arrowMember  bool // C family, PHP: -> reads a member (elsewhere it is a return type or a lambda)
}

// The word lists are the languages' reserved words (and the few constants,
// types and builtins every reader expects in colour), from each
// language's reference.
var wordLists = map[string]struct {
	keywords, constants, types, builtins string
	foldCase, preprocessor, dollarVars   bool
	arrowMember                          bool
}{
	"Go": {
		keywords:  "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var",
		constants: "true false nil iota",
		types:     "bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable",
		builtins:  "append cap clear close complex copy delete imag len make max min new panic print println real recover",
	},
	"C": {
		keywords:     cKeywords,
		constants:    "true false NULL nullptr",
		types:        cTypes,
		preprocessor: true,
		arrowMember:  true,
	},
	"C++": {
		keywords:     cKeywords + " " + cppKeywords,
		constants:    "true false NULL nullptr this",
		types:        cTypes + " wchar_t char8_t char16_t char32_t",
		preprocessor: true,
		arrowMember:  true,
	},
	"Objective-C": {
		keywords:     cKeywords + " @interface @implementation @end @property @protocol @class @selector @synthesize @dynamic @try @catch @finally @throw @autoreleasepool @optional @required @public @private @protected @import",
		constants:    "true false NULL nil Nil YES NO self super",
		types:        cTypes + " id instancetype BOOL SEL Class",
		preprocessor: true,
		arrowMember:  true,
	},
	"Java": {
		keywords:  "abstract assert break case catch class const continue default do else enum extends final finally for goto if implements import instanceof interface native new package permits private protected public record return sealed static strictfp super switch synchronized throw throws transient try var volatile while yield",
		constants: "true false null this",
		types:     "boolean byte char double float int long short void",
	},
	"Groovy": {
		keywords:  "abstract as assert break case catch class const continue def default do else enum extends final finally for goto if implements import in instanceof interface native new package private protected public return static super switch synchronized throw throws trait transient try var volatile while",
		constants: "true false null this",
		types:     "boolean byte char double float int long short void",
	},
	"C#": {
		keywords:  "abstract as async await base break case catch checked class const continue default delegate do else enum event explicit extern finally fixed for foreach get goto if implicit in init interface internal is lock namespace new operator out override params partial private protected public readonly record ref return sealed set sizeof stackalloc static struct switch throw try typeof unchecked unsafe using var virtual volatile when where while yield nameof",
		constants: "true false null this value",
		types:     "bool byte char decimal double dynamic float int long object sbyte short string uint ulong ushort void nint nuint",
	},
	"JavaScript": {keywords: jsKeywords, constants: jsConstants, builtins: jsBuiltins, dollarVars: false},
	"TypeScript": {keywords: jsKeywords + " " + tsKeywords, constants: jsConstants, types: tsTypes, builtins: jsBuiltins},
	"JSX":        {keywords: jsKeywords, constants: jsConstants, builtins: jsBuiltins},
	"TSX":        {keywords: jsKeywords + " " + tsKeywords, constants: jsConstants, types: tsTypes, builtins: jsBuiltins},
	"Python": {
		keywords:  "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case",
		constants: "True False None self cls",
		builtins:  "abs all any bool bytes callable chr dict dir enumerate filter float format frozenset getattr hasattr hash id input int isinstance issubclass iter len list map max min next object open ord print property range repr reversed round set setattr slice sorted staticmethod classmethod str sum super tuple type zip",
	},
	"Ruby": {
		keywords:  "BEGIN END alias and begin break case class def defined? do else elsif end ensure for if in module next not or redo rescue retry return then undef unless until when while yield __method__ require require_relative attr_reader attr_writer attr_accessor private protected public raise",
		constants: "true false nil self super __FILE__ __LINE__ __ENCODING__",
	},
	"PHP": {
		keywords:    "abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile enum extends final finally fn for foreach function global goto if implements include include_once instanceof insteadof interface isset list match namespace new or print private protected public readonly require require_once return static switch throw trait try unset use var while xor yield",
		constants:   "true false null $this self parent",
		types:       "int float bool string void mixed never object iterable",
		foldCase:    true,
		dollarVars:  true,
		arrowMember: true,
	},
	"Rust": {
		keywords:  "as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return static struct super trait type union unsafe use where while macro_rules",
		constants: "true false self Self None Some Ok Err",
		types:     "bool char str i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 String Vec Option Result Box",
	},
	"Kotlin": {
		keywords:  "abstract actual annotation as break by catch class companion const constructor continue crossinline data do else enum expect external final finally for fun get if import in infix init inline inner interface internal is lateinit noinline object open operator out override package private protected public reified return sealed set suspend tailrec throw try typealias val var vararg when where while",
		constants: "true false null this super it",
		types:     "Any Boolean Byte Char Double Float Int Long Nothing Short String Unit",
	},
	"Swift": {
		keywords:  "associatedtype async await break case catch class continue default defer deinit do else enum extension fallthrough fileprivate for func guard if import in init inout internal is let open operator private protocol public repeat rethrows return some any static struct subscript switch throw throws try typealias var where while as",
		constants: "true false nil self Self super",
		types:     "Any Bool Character Double Float Int String Void",
	},
	"Scala": {
		keywords:  "abstract case catch class def do else enum export extends final finally for forSome given if implicit import lazy match new object override package private protected return sealed then throw trait try type using val var while with yield",
		constants: "true false null this super",
		types:     "Any AnyRef AnyVal Boolean Byte Char Double Float Int Long Nothing Short String Unit",
	},
	"Dart": {
		keywords:  "abstract as assert async await break case catch class const continue covariant default deferred do dynamic else enum export extends extension external factory final finally for get hide if implements import in interface is late library mixin new on operator part required rethrow return set show static switch sync throw try typedef var while with yield",
		constants: "true false null this super",
		types:     "bool double int num String void Object Function List Map Set Future Stream",
	},
	"Bourne Shell": {keywords: shKeywords, builtins: shBuiltins, dollarVars: true},
}

const (
	cKeywords   = "auto break case const continue default do else enum extern for goto if inline register restrict return signed sizeof static struct switch typedef union unsigned volatile while _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local"
	cTypes      = "char double float int long short void bool _Bool _Complex size_t ssize_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t"
	cppKeywords = "alignas alignof and and_eq asm bitand bitor catch class compl concept consteval constexpr constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit export final friend mutable namespace new noexcept not not_eq operator or or_eq override private protected public reinterpret_cast requires static_assert static_cast template thread_local throw try typeid typename using virtual xor xor_eq"
	jsKeywords  = "async await break case catch class const continue debugger default delete do else export extends finally for from function get if import in instanceof let new of return set static super switch throw try typeof var void while with yield"
	tsKeywords  = "abstract as declare enum implements infer interface is keyof module namespace private protected public readonly satisfies type"
	jsConstants = "true false null undefined this NaN Infinity"
	jsBuiltins  = "Array Boolean Date Error JSON Map Math Number Object Promise RegExp Set String Symbol console"
	tsTypes     = "any bigint boolean never number object string symbol unknown"
	shKeywords  = "if then else elif fi case esac for select while until do done in function time"
	shBuiltins  = "alias cd declare echo eval exec exit export local printf read readonly return set shift source test trap unset"
)

// Languages that share a list with another.
var sameWords = map[string]string{
	"C/C++ Header":       "C++",
	"Objective-C++":      "Objective-C",
	"Bourne Again Shell": "Bourne Shell",
	"Korn Shell":         "Bourne Shell",
	"zsh":                "Bourne Shell",
}

var (
	wordsOnce sync.Once
	wordsBy   map[string]*words
)

// wordsOf is the word list of a language, nil when there is none (chroma
// highlights those languages).
func wordsOf(language string) *words {
	wordsOnce.Do(func() {
		wordsBy = map[string]*words{}
		for name, l := range wordLists {
			w := &words{byWord: map[string]string{}, foldCase: l.foldCase, preprocessor: l.preprocessor, dollarVars: l.dollarVars, arrowMember: l.arrowMember}
			for _, set := range []struct{ list, class string }{
				{l.builtins, "nb"}, {l.types, "kt"}, {l.constants, "kc"}, {l.keywords, "k"},
			} {
				for _, word := range strings.Fields(set.list) {
					w.byWord[word] = set.class
				}
			}
			wordsBy[name] = w
		}
		for name, as := range sameWords {
			wordsBy[name] = wordsBy[as]
		}
	})
	return wordsBy[language]
}

// member access: the name after it is a field or method, never a keyword
// (p.catch(…), o.if, $x->list).
var memberAccess = map[string]bool{".": true, "?.": true, "::": true}

// operatorBytes are the bytes of operators (the rest of the punctuation is
// brackets and separators).
const operatorBytes = "+-*/%=<>!&|^~?:@"

// class is the class of toks[i].
func (w *words) class(src []byte, toks []token.Token, i int) string {
	t := toks[i]
	switch t.Kind {
	case token.String:
		return "s"
	case token.Number:
		return "m"
	case token.Punct:
		if w.preprocessor && t.Is(src, "#") && (i == 0 || toks[i-1].End < t.Line) {
			return "cp"
		}
		if strings.IndexByte(operatorBytes, src[t.Start]) >= 0 {
			return "o"
		}
		return "p"
	}
	text := src[t.Start : t.Start+t.Len]
	if i > 0 {
		prev := toks[i-1]
		if w.preprocessor && prev.Kind == token.Punct && prev.Is(src, "#") && prev.Line == t.Line && (i == 1 || toks[i-2].End < prev.Line) {
			return "cp"
		}
		if p := string(src[prev.Start : prev.Start+prev.Len]); prev.Kind == token.Punct && (memberAccess[p] || w.arrowMember && p == "->") {
			if calls(src, toks, i) {
				return "nf"
			}
			return ""
		}
	}
	word := string(text)
	if w.foldCase {
		word = strings.ToLower(word)
	}
	if c, ok := w.byWord[word]; ok {
		return c
	}
	switch {
	case w.dollarVars && text[0] == '$':
		return "nv"
	case text[0] == '@':
		return "nd"
	case calls(src, toks, i):
		return "nf"
	}
	return ""
}

// calls reports whether the identifier toks[i] is followed by "(" (a
// function declared or called).
func calls(src []byte, toks []token.Token, i int) bool {
	return i+1 < len(toks) && toks[i+1].Kind == token.Punct && toks[i+1].Is(src, "(")
}
