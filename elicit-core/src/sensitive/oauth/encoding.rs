//! The encodings of the authorization code flow, written here rather than
//! taken from the `url` and `base64` crates (BENCHMARKS.md, "Build cost"):
//! `application/x-www-form-urlencoded` as the URL Standard writes and
//! reads it, and base64 (RFC 4648) with and without padding.

/// `name=value&..`, each form-encoded.
pub(crate) fn form_encode(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (name, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(&form_encode_value(name));
        out.push('=');
        out.push_str(&form_encode_value(value));
    }
    out
}

/// The URL Standard's `application/x-www-form-urlencoded` byte serializer:
/// ASCII letters, digits and `*-._` as they are, a space as `+`, any other
/// byte as `%XX`.
pub(crate) fn form_encode_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
        }
    }
    out
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The pairs of a form-encoded query, decoded (`+` is a space; invalid
/// UTF-8 becomes U+FFFD), as the URL Standard's parser reads them.
pub(crate) fn form_pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query.split('&').filter(|p| !p.is_empty()).map(|pair| {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        (form_decode(name), form_decode(value))
    })
}

fn form_decode(text: &str) -> String {
    let spaced = text.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8_lossy()
        .into_owned()
}

pub(crate) const STANDARD: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub(crate) const URL_SAFE: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64 (RFC 4648) in `alphabet`, with `=` padding or without.
pub(crate) fn base64(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        let digits = chunk.len() + 1;
        for i in 0..4 {
            if i < digits {
                out.push(char::from(alphabet[(n >> (18 - 6 * i) & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_follows_rfc_4648() {
        // RFC 4648, section 10.
        for (input, padded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes(), STANDARD, true), padded);
            assert_eq!(
                base64(input.as_bytes(), URL_SAFE, false),
                padded.trim_end_matches('=')
            );
        }
        assert_eq!(base64(&[0xFB, 0xFF], URL_SAFE, false), "-_8");
        assert_eq!(base64(&[0xFB, 0xFF], STANDARD, true), "+/8=");
    }

    #[test]
    fn forms_encode_and_decode_as_the_url_standard() {
        assert_eq!(
            form_encode(&[("scope", "read write"), ("x", "a+b/c?d=é*-._~")]),
            "scope=read+write&x=a%2Bb%2Fc%3Fd%3D%C3%A9*-._%7E"
        );
        let pairs: Vec<_> = form_pairs("state=a%2Bb+c&&code=%E2%82%AC&flag&bad=%FF").collect();
        assert_eq!(
            pairs,
            [
                ("state".to_owned(), "a+b c".to_owned()),
                ("code".to_owned(), "€".to_owned()),
                ("flag".to_owned(), String::new()),
                ("bad".to_owned(), "\u{FFFD}".to_owned()),
            ]
        );
    }
}
