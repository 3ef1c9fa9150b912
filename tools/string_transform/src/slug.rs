//! Slugs: lowercase, accents folded to ASCII where a common folding exists,
//! anything that is not a letter or digit becomes one separator. Letters of
//! other scripts (日本, Ελλάδα) are kept rather than dropped, since an empty
//! slug helps no one.

fn fold(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ĵ' => "j",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ș' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' | 'ț' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

fn is_combining(c: char) -> bool {
    (0x0300..=0x036F).contains(&(c as u32))
}

pub fn slugify(s: &str, sep: &str) -> String {
    let mut out = String::new();
    let mut pending_sep = false;
    for c in s.chars().flat_map(char::to_lowercase) {
        if is_combining(c) {
            continue; // "e" + U+0301 folds like "é"
        }
        let piece: String = match fold(c) {
            Some(f) => f.to_string(),
            None if c.is_alphanumeric() => c.to_string(),
            None => {
                pending_sep = true;
                continue;
            }
        };
        if pending_sep && !out.is_empty() {
            out.push_str(sep);
        }
        pending_sep = false;
        out.push_str(&piece);
    }
    out
}
