//! `\p{..}` and `\P{..}`: exactly the property names ECMA-262 takes
//! (case-sensitive, no loose matching), each mapped to the class of
//! `regex-syntax` with the same members, whose ranges are written out for
//! `regex-lite` (feature `unicode`; without it, a known name is refused as
//! needing the tables).
//!
//! ECMA-262 takes, in `u` mode: `General_Category` (or `gc`) `=` a value,
//! `Script` (`sc`) or `Script_Extensions` (`scx`) `=` a value, or one name
//! alone that is a `General_Category` value or a binary property of its
//! table. The names are those of Unicode's PropertyValueAliases.txt and
//! PropertyAliases.txt, in the spelling given there.

/// What a property escape stands for: its members, as ranges of code
/// points.
pub(crate) struct Property(pub(crate) Vec<(u32, u32)>);

/// A property JavaScript takes, before its members are looked up.
enum Known {
    /// A `regex-syntax` class.
    Class(String),
    /// No well-formed string has one (`\p{Cs}`, surrogates).
    Nothing,
    /// Every character (`\P{Cs}`).
    Everything,
}

/// Why a property escape cannot be used.
pub(crate) enum Unknown {
    /// JavaScript refuses it too.
    Name(String),
    /// JavaScript knows it, the Unicode tables here have no such class.
    NotInEngine(String),
    /// JavaScript knows it, and this build has no Unicode tables (the
    /// `unicode` feature is off).
    #[cfg(not(feature = "unicode"))]
    NeedsTables,
}

/// Looks up `\p{name}` (`value` is `None`) or `\p{name=value}`;
/// `negated` for `\P`.
pub(crate) fn lookup(name: &str, value: Option<&str>, negated: bool) -> Result<Property, Unknown> {
    match known(name, value, negated)? {
        Known::Class(class) => members(&class),
        Known::Nothing => Ok(Property(Vec::new())),
        Known::Everything => Ok(Property(vec![(0, 0x10FFFF)])),
    }
}

/// The `regex-syntax` class of `\p{name}` or `\p{name=value}`, when
/// JavaScript takes that name.
fn known(name: &str, value: Option<&str>, negated: bool) -> Result<Known, Unknown> {
    let p = if negated { 'P' } else { 'p' };
    let class = match value {
        Some(value) => match name {
            "General_Category" | "gc" if is_general_category(value) => {
                return Ok(general_category(value, negated));
            }
            // No code point of `Unknown` has a script extension other than
            // `Unknown`: both are the unassigned and private-use ones.
            "Script" | "sc" | "Script_Extensions" | "scx"
                if matches!(value, "Unknown" | "Zzzz") =>
            {
                format!(
                    r"[{}\p{{gc=Cn}}\p{{gc=Co}}]",
                    if negated { "^" } else { "" }
                )
            }
            "Script" | "sc" if is_script(value) => format!(r"\{p}{{sc={value}}}"),
            "Script_Extensions" | "scx" if is_script(value) => format!(r"\{p}{{scx={value}}}"),
            "Script" | "sc" | "Script_Extensions" | "scx"
                if UNICODE_17_SCRIPTS.contains(&value) =>
            {
                return Err(Unknown::NotInEngine(format!(
                    "the script `{value}` is new in Unicode 17, and the Unicode tables this \
                     runs on (`regex-syntax`'s) are Unicode 16: list its characters in a class"
                )));
            }
            "General_Category" | "gc" | "Script" | "sc" | "Script_Extensions" | "scx" => {
                return Err(Unknown::Name(format!(
                    "`{value}` is not a value of `{name}` JavaScript knows (names are \
                     case-sensitive, in Unicode's spelling)"
                )));
            }
            _ => {
                return Err(Unknown::Name(format!(
                    "`{name}=` is not a property JavaScript takes with a value: use \
                     `General_Category=`, `Script=` or `Script_Extensions=`"
                )));
            }
        },
        None => {
            if is_general_category(name) {
                return Ok(general_category(name, negated));
            }
            match binary(name) {
                Some(long) => format!(r"\{p}{{{long}}}"),
                None if name == "Changes_When_NFKC_Casefolded" || name == "CWKCF" => {
                    return Err(Unknown::NotInEngine(format!(
                        "the property `{name}` is not one the Unicode tables this runs on \
                         (`regex-syntax`'s) have"
                    )));
                }
                None if is_script(name) || UNICODE_17_SCRIPTS.contains(&name) => {
                    return Err(Unknown::Name(format!(
                        "a script needs its property name: write `\\{p}{{Script={name}}}`"
                    )));
                }
                None => {
                    return Err(Unknown::Name(format!(
                        "`{name}` is not a Unicode property JavaScript knows (names are \
                         case-sensitive, in Unicode's spelling: `L`, `Letter`, `Alphabetic`, \
                         `Script=Greek`)"
                    )));
                }
            }
        }
    };
    Ok(Known::Class(class))
}

fn general_category(value: &str, negated: bool) -> Known {
    match (value, negated) {
        // Surrogate code points are never in a well-formed string.
        ("Cs" | "Surrogate", false) => Known::Nothing,
        ("Cs" | "Surrogate", true) => Known::Everything,
        (_, false) => Known::Class(format!(r"\p{{gc={value}}}")),
        (_, true) => Known::Class(format!(r"\P{{gc={value}}}")),
    }
}

fn is_general_category(value: &str) -> bool {
    GENERAL_CATEGORY.binary_search(&value).is_ok()
}

fn is_script(value: &str) -> bool {
    SCRIPTS.binary_search(&value).is_ok()
}

/// The members of a `regex-syntax` class.
#[cfg(feature = "unicode")]
fn members(class: &str) -> Result<Property, Unknown> {
    let set = tables::class(class).ok_or_else(|| {
        Unknown::NotInEngine(format!(
            "the Unicode tables this runs on have no class `{class}`"
        ))
    })?;
    Ok(Property(
        set.ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
    ))
}

#[cfg(not(feature = "unicode"))]
fn members(_: &str) -> Result<Property, Unknown> {
    Err(Unknown::NeedsTables)
}

/// Whether a group name is an ECMA-262 identifier: `None` when it is not
/// ASCII and this build has no Unicode tables to tell.
pub(crate) fn is_identifier(name: &str) -> Option<bool> {
    let mut chars = name.chars();
    let first = chars.next()?;
    if name.is_ascii() {
        return Some(
            (first.is_ascii_alphabetic() || first == '$' || first == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '$' || c == '_'),
        );
    }
    #[cfg(feature = "unicode")]
    {
        let ids = tables::identifiers();
        let contains = |set: &regex_syntax::hir::ClassUnicode, c: char| {
            set.ranges()
                .binary_search_by(|r| {
                    if r.end() < c {
                        std::cmp::Ordering::Less
                    } else if r.start() > c {
                        std::cmp::Ordering::Greater
                    } else {
                        std::cmp::Ordering::Equal
                    }
                })
                .is_ok()
        };
        Some(
            (first == '$' || first == '_' || contains(&ids.0, first))
                && chars.all(|c| matches!(c, '$' | '\u{200C}' | '\u{200D}') || contains(&ids.1, c)),
        )
    }
    #[cfg(not(feature = "unicode"))]
    None
}

/// The Unicode tables: `regex-syntax`'s, read through its parser.
#[cfg(feature = "unicode")]
mod tables {
    use std::sync::OnceLock;

    use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

    /// The members of a `regex-syntax` class such as `\p{sc=Greek}`.
    pub(super) fn class(class: &str) -> Option<ClassUnicode> {
        let hir = regex_syntax::ParserBuilder::new()
            .build()
            .parse(class)
            .ok()?;
        match hir.into_kind() {
            HirKind::Class(Class::Unicode(set)) => Some(set),
            // A class of one character (`\p{Zl}`) is read as that character.
            HirKind::Literal(literal) => {
                let mut chars = std::str::from_utf8(&literal.0).ok()?.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(ClassUnicode::new([ClassUnicodeRange::new(c, c)])),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `ID_Start` and `ID_Continue`.
    pub(super) fn identifiers() -> &'static (ClassUnicode, ClassUnicode) {
        static IDS: OnceLock<(ClassUnicode, ClassUnicode)> = OnceLock::new();
        IDS.get_or_init(|| {
            let empty = || ClassUnicode::new([]);
            (
                class(r"\p{ID_Start}").unwrap_or_else(empty),
                class(r"\p{ID_Continue}").unwrap_or_else(empty),
            )
        })
    }
}

/// The long name of a binary property, given any of its ECMA names.
fn binary(name: &str) -> Option<&'static str> {
    BINARY
        .iter()
        .find(|(long, aliases)| *long == name || aliases.contains(&name))
        .map(|(long, _)| *long)
}

/// ECMA-262's table of binary Unicode properties: each long name, and its
/// aliases. Without `Changes_When_NFKC_Casefolded`
/// (`CWKCF`), which `regex-syntax`'s tables do not have.
pub(crate) const BINARY: &[(&str, &[&str])] = &[
    ("ASCII", &[]),
    ("ASCII_Hex_Digit", &["AHex"]),
    ("Alphabetic", &["Alpha"]),
    ("Any", &[]),
    ("Assigned", &[]),
    ("Bidi_Control", &["Bidi_C"]),
    ("Bidi_Mirrored", &["Bidi_M"]),
    ("Case_Ignorable", &["CI"]),
    ("Cased", &[]),
    ("Changes_When_Casefolded", &["CWCF"]),
    ("Changes_When_Casemapped", &["CWCM"]),
    ("Changes_When_Lowercased", &["CWL"]),
    ("Changes_When_Titlecased", &["CWT"]),
    ("Changes_When_Uppercased", &["CWU"]),
    ("Dash", &[]),
    ("Default_Ignorable_Code_Point", &["DI"]),
    ("Deprecated", &["Dep"]),
    ("Diacritic", &["Dia"]),
    ("Emoji", &[]),
    ("Emoji_Component", &["EComp"]),
    ("Emoji_Modifier", &["EMod"]),
    ("Emoji_Modifier_Base", &["EBase"]),
    ("Emoji_Presentation", &["EPres"]),
    ("Extended_Pictographic", &["ExtPict"]),
    ("Extender", &["Ext"]),
    ("Grapheme_Base", &["Gr_Base"]),
    ("Grapheme_Extend", &["Gr_Ext"]),
    ("Hex_Digit", &["Hex"]),
    ("IDS_Binary_Operator", &["IDSB"]),
    ("IDS_Trinary_Operator", &["IDST"]),
    ("ID_Continue", &["IDC"]),
    ("ID_Start", &["IDS"]),
    ("Ideographic", &["Ideo"]),
    ("Join_Control", &["Join_C"]),
    ("Logical_Order_Exception", &["LOE"]),
    ("Lowercase", &["Lower"]),
    ("Math", &[]),
    ("Noncharacter_Code_Point", &["NChar"]),
    ("Pattern_Syntax", &["Pat_Syn"]),
    ("Pattern_White_Space", &["Pat_WS"]),
    ("Quotation_Mark", &["QMark"]),
    ("Radical", &[]),
    ("Regional_Indicator", &["RI"]),
    ("Sentence_Terminal", &["STerm"]),
    ("Soft_Dotted", &["SD"]),
    ("Terminal_Punctuation", &["Term"]),
    ("Unified_Ideograph", &["UIdeo"]),
    ("Uppercase", &["Upper"]),
    ("Variation_Selector", &["VS"]),
    ("White_Space", &["WSpace", "space"]),
    ("XID_Continue", &["XIDC"]),
    ("XID_Start", &["XIDS"]),
];

/// Every `General_Category` value and alias (PropertyValueAliases.txt),
/// sorted.
pub(crate) const GENERAL_CATEGORY: &[&str] = &[
    "C",
    "Cased_Letter",
    "Cc",
    "Cf",
    "Close_Punctuation",
    "Cn",
    "Co",
    "Combining_Mark",
    "Connector_Punctuation",
    "Control",
    "Cs",
    "Currency_Symbol",
    "Dash_Punctuation",
    "Decimal_Number",
    "Enclosing_Mark",
    "Final_Punctuation",
    "Format",
    "Initial_Punctuation",
    "L",
    "LC",
    "Letter",
    "Letter_Number",
    "Line_Separator",
    "Ll",
    "Lm",
    "Lo",
    "Lowercase_Letter",
    "Lt",
    "Lu",
    "M",
    "Mark",
    "Math_Symbol",
    "Mc",
    "Me",
    "Mn",
    "Modifier_Letter",
    "Modifier_Symbol",
    "N",
    "Nd",
    "Nl",
    "No",
    "Nonspacing_Mark",
    "Number",
    "Open_Punctuation",
    "Other",
    "Other_Letter",
    "Other_Number",
    "Other_Punctuation",
    "Other_Symbol",
    "P",
    "Paragraph_Separator",
    "Pc",
    "Pd",
    "Pe",
    "Pf",
    "Pi",
    "Po",
    "Private_Use",
    "Ps",
    "Punctuation",
    "S",
    "Sc",
    "Separator",
    "Sk",
    "Sm",
    "So",
    "Space_Separator",
    "Spacing_Mark",
    "Surrogate",
    "Symbol",
    "Titlecase_Letter",
    "Unassigned",
    "Uppercase_Letter",
    "Z",
    "Zl",
    "Zp",
    "Zs",
    "cntrl",
    "digit",
    "punct",
];

/// The scripts of Unicode 17 (Node 20 knows them, the `regex` crate does
/// not yet).
const UNICODE_17_SCRIPTS: &[&str] = &[
    "Beria_Erfe",
    "Berf",
    "Sidetic",
    "Sidt",
    "Tai_Yo",
    "Tayo",
    "Tolong_Siki",
    "Tols",
];

/// Every `Script` value and alias both JavaScript (checked with Node 20,
/// Unicode 17) and the `regex` crate (Unicode 16) know, sorted.
pub(crate) const SCRIPTS: &[&str] = &[
    "Adlam",
    "Adlm",
    "Aghb",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arab",
    "Arabic",
    "Armenian",
    "Armi",
    "Armn",
    "Avestan",
    "Avst",
    "Bali",
    "Balinese",
    "Bamu",
    "Bamum",
    "Bass",
    "Bassa_Vah",
    "Batak",
    "Batk",
    "Beng",
    "Bengali",
    "Bhaiksuki",
    "Bhks",
    "Bopo",
    "Bopomofo",
    "Brah",
    "Brahmi",
    "Brai",
    "Braille",
    "Bugi",
    "Buginese",
    "Buhd",
    "Buhid",
    "Cakm",
    "Canadian_Aboriginal",
    "Cans",
    "Cari",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cher",
    "Cherokee",
    "Chorasmian",
    "Chrs",
    "Common",
    "Copt",
    "Coptic",
    "Cpmn",
    "Cprt",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Cyrl",
    "Deseret",
    "Deva",
    "Devanagari",
    "Diak",
    "Dives_Akuru",
    "Dogr",
    "Dogra",
    "Dsrt",
    "Dupl",
    "Duployan",
    "Egyp",
    "Egyptian_Hieroglyphs",
    "Elba",
    "Elbasan",
    "Elym",
    "Elymaic",
    "Ethi",
    "Ethiopic",
    "Gara",
    "Garay",
    "Geor",
    "Georgian",
    "Glag",
    "Glagolitic",
    "Gong",
    "Gonm",
    "Goth",
    "Gothic",
    "Gran",
    "Grantha",
    "Greek",
    "Grek",
    "Gujarati",
    "Gujr",
    "Gukh",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Guru",
    "Gurung_Khema",
    "Han",
    "Hang",
    "Hangul",
    "Hani",
    "Hanifi_Rohingya",
    "Hano",
    "Hanunoo",
    "Hatr",
    "Hatran",
    "Hebr",
    "Hebrew",
    "Hira",
    "Hiragana",
    "Hluw",
    "Hmng",
    "Hmnp",
    "Hung",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Ital",
    "Java",
    "Javanese",
    "Kaithi",
    "Kali",
    "Kana",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Khar",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khmr",
    "Khoj",
    "Khojki",
    "Khudawadi",
    "Kirat_Rai",
    "Kits",
    "Knda",
    "Krai",
    "Kthi",
    "Lana",
    "Lao",
    "Laoo",
    "Latin",
    "Latn",
    "Lepc",
    "Lepcha",
    "Limb",
    "Limbu",
    "Lina",
    "Linb",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lyci",
    "Lycian",
    "Lydi",
    "Lydian",
    "Mahajani",
    "Mahj",
    "Maka",
    "Makasar",
    "Malayalam",
    "Mand",
    "Mandaic",
    "Mani",
    "Manichaean",
    "Marc",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Medf",
    "Meetei_Mayek",
    "Mend",
    "Mende_Kikakui",
    "Merc",
    "Mero",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Mlym",
    "Modi",
    "Mong",
    "Mongolian",
    "Mro",
    "Mroo",
    "Mtei",
    "Mult",
    "Multani",
    "Myanmar",
    "Mymr",
    "Nabataean",
    "Nag_Mundari",
    "Nagm",
    "Nand",
    "Nandinagari",
    "Narb",
    "Nbat",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nkoo",
    "Nshu",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogam",
    "Ogham",
    "Ol_Chiki",
    "Ol_Onal",
    "Olck",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Onao",
    "Oriya",
    "Orkh",
    "Orya",
    "Osage",
    "Osge",
    "Osma",
    "Osmanya",
    "Ougr",
    "Pahawh_Hmong",
    "Palm",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Pauc",
    "Perm",
    "Phag",
    "Phags_Pa",
    "Phli",
    "Phlp",
    "Phnx",
    "Phoenician",
    "Plrd",
    "Prti",
    "Psalter_Pahlavi",
    "Qaac",
    "Qaai",
    "Rejang",
    "Rjng",
    "Rohg",
    "Runic",
    "Runr",
    "Samaritan",
    "Samr",
    "Sarb",
    "Saur",
    "Saurashtra",
    "Sgnw",
    "Sharada",
    "Shavian",
    "Shaw",
    "Shrd",
    "Sidd",
    "Siddham",
    "SignWriting",
    "Sind",
    "Sinh",
    "Sinhala",
    "Sogd",
    "Sogdian",
    "Sogo",
    "Sora",
    "Sora_Sompeng",
    "Soyo",
    "Soyombo",
    "Sund",
    "Sundanese",
    "Sunu",
    "Sunuwar",
    "Sylo",
    "Syloti_Nagri",
    "Syrc",
    "Syriac",
    "Tagalog",
    "Tagb",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takr",
    "Takri",
    "Tale",
    "Talu",
    "Tamil",
    "Taml",
    "Tang",
    "Tangsa",
    "Tangut",
    "Tavt",
    "Telu",
    "Telugu",
    "Tfng",
    "Tglg",
    "Thaa",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tibt",
    "Tifinagh",
    "Tirh",
    "Tirhuta",
    "Tnsa",
    "Todhri",
    "Todr",
    "Toto",
    "Tulu_Tigalari",
    "Tutg",
    "Ugar",
    "Ugaritic",
    "Unknown",
    "Vai",
    "Vaii",
    "Vith",
    "Vithkuqi",
    "Wancho",
    "Wara",
    "Warang_Citi",
    "Wcho",
    "Xpeo",
    "Xsux",
    "Yezi",
    "Yezidi",
    "Yi",
    "Yiii",
    "Zanabazar_Square",
    "Zanb",
    "Zinh",
    "Zyyy",
    "Zzzz",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Without the tables, a property JavaScript knows is refused naming
    /// the feature, and one it does not know is still a syntax error.
    #[cfg(not(feature = "unicode"))]
    #[test]
    fn without_the_tables_a_property_names_the_feature() {
        let e = crate::compile(r"^\p{L}+$").unwrap_err();
        assert!(
            matches!(e.kind(), crate::PatternErrorKind::NeedsUnicode(_)),
            "{e}"
        );
        assert!(e.is_valid_javascript());
        assert!(e.to_string().contains("`unicode` feature"), "{e}");
        let e = crate::compile(r"^\p{Letterz}$").unwrap_err();
        assert!(
            matches!(e.kind(), crate::PatternErrorKind::Syntax(_)),
            "{e}"
        );
        let e = crate::compile(r"(?<ñ>a)").unwrap_err();
        assert!(
            matches!(e.kind(), crate::PatternErrorKind::NeedsUnicode(_)),
            "{e}"
        );
        assert!(crate::compile(r"(?<n1>a)").is_ok());
    }

    #[test]
    fn the_tables_are_sorted_for_binary_search() {
        assert!(GENERAL_CATEGORY.is_sorted());
        assert!(SCRIPTS.is_sorted());
    }

    /// Every name maps to a class the Unicode tables have.
    #[cfg(feature = "unicode")]
    #[test]
    fn every_name_is_a_class_of_the_tables() {
        let mut classes = Vec::new();
        for gc in GENERAL_CATEGORY {
            classes.push(lookup("gc", Some(gc), false));
            classes.push(lookup(gc, None, true));
        }
        for sc in SCRIPTS {
            classes.push(lookup("Script", Some(sc), false));
            classes.push(lookup("scx", Some(sc), true));
        }
        for (long, aliases) in BINARY {
            classes.push(lookup(long, None, false));
            classes.extend(aliases.iter().map(|a| lookup(a, None, true)));
        }
        let mut failed = Vec::new();
        for class in classes {
            match class {
                Ok(Property(_)) => {}
                Err(Unknown::Name(why) | Unknown::NotInEngine(why)) => failed.push(why),
            }
        }
        assert_eq!(failed, Vec::<String>::new());
    }
}
