//! [`SealingKeys`]: what reaches Redis that must not be read there, sealed
//! with ChaCha20-Poly1305 (a random 96-bit nonce per seal, the blob's
//! place in Redis as associated data).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use zeroize::Zeroizing;

/// The keys that seal what a shared store must hold but must not show:
/// a submitted secret on its way to the replica that asked, and a page's
/// binding tokens. Every replica behind one URL needs the same keys.
///
/// A sealed blob is `key id (1 byte) ‖ nonce (12) ‖ ChaCha20-Poly1305
/// ciphertext and tag`, with the blob's Redis key as associated data, so a
/// blob moved to another page does not open.
///
/// **Rotation.** Add the new key to every replica as an
/// [`also`](Self::also) key, then make it the active one everywhere (the
/// old one an `also` key), then drop the old one once the longest page
/// lifetime has passed: a blob sealed with it opens until then.
///
/// ```
/// use elicit_core::redis::SealingKeys;
///
/// // 32 bytes each, from your secret store; 1 and 2 are key ids.
/// let keys = SealingKeys::new(2, [7; 32]).also(1, [3; 32]);
/// # let _ = keys;
/// ```
#[derive(Clone)]
pub struct SealingKeys {
    active: u8,
    keys: Arc<BTreeMap<u8, ChaCha20Poly1305>>,
}

impl fmt::Debug for SealingKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SealingKeys")
            .field("active", &self.active)
            .field("ids", &self.keys.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl SealingKeys {
    /// Seals with `key`, under the id `id`.
    pub fn new(id: u8, key: [u8; 32]) -> Self {
        let key = Zeroizing::new(key);
        let mut keys = BTreeMap::new();
        keys.insert(id, ChaCha20Poly1305::new(Key::from_slice(&*key)));
        Self {
            active: id,
            keys: Arc::new(keys),
        }
    }

    /// Also opens blobs sealed with `key` (id `id`), never seals with it:
    /// the key being rotated in or out. The active key's id is kept if
    /// `id` is the same.
    #[must_use]
    pub fn also(mut self, id: u8, key: [u8; 32]) -> Self {
        if id != self.active {
            let key = Zeroizing::new(key);
            Arc::make_mut(&mut self.keys).insert(id, ChaCha20Poly1305::new(Key::from_slice(&*key)));
        }
        self
    }

    /// A key drawn from the OS RNG: blobs open only in this process. For
    /// one process (tests, a single replica); several replicas need
    /// [`new`](Self::new) with a key they share.
    ///
    /// # Errors
    ///
    /// The OS RNG's.
    pub fn random() -> Result<Self, getrandom::Error> {
        let mut key = Zeroizing::new([0u8; 32]);
        getrandom::fill(key.as_mut())?;
        Ok(Self::new(0, *key))
    }

    // Only the page store seals (not `RedisUsedStates`).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    /// `plaintext` sealed for the place `aad`.
    pub(crate) fn seal(&self, plaintext: &[u8], aad: &[u8]) -> Result<Vec<u8>, getrandom::Error> {
        let mut nonce = [0u8; 12];
        getrandom::fill(&mut nonce)?;
        let cipher = &self.keys[&self.active];
        let sealed = cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: plaintext,
                    aad,
                },
            )
            .expect("ChaCha20-Poly1305 seals any message below 256 GiB");
        let mut out = Vec::with_capacity(1 + 12 + sealed.len());
        out.push(self.active);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    /// The plaintext of a blob sealed for the place `aad` with one of these
    /// keys; `None` for anything else (another key, another place, a
    /// changed byte).
    pub(crate) fn open(&self, sealed: &[u8], aad: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
        let (&id, rest) = sealed.split_first()?;
        if rest.len() < 12 {
            return None;
        }
        let (nonce, ciphertext) = rest.split_at(12);
        let cipher = self.keys.get(&id)?;
        cipher
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: ciphertext,
                    aad,
                },
            )
            .ok()
            .map(Zeroizing::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_opens_with_its_key_at_its_place_only() {
        let keys = SealingKeys::new(1, [9; 32]);
        let sealed = keys.seal(b"hunter2", b"elicit:page:a:end").unwrap();
        assert!(!sealed.windows(7).any(|w| w == b"hunter2"));
        assert_eq!(
            keys.open(&sealed, b"elicit:page:a:end").unwrap().as_slice(),
            b"hunter2"
        );
        assert!(keys.open(&sealed, b"elicit:page:b:end").is_none());
        let mut changed = sealed.clone();
        *changed.last_mut().unwrap() ^= 1;
        assert!(keys.open(&changed, b"elicit:page:a:end").is_none());
        assert!(
            SealingKeys::new(1, [8; 32])
                .open(&sealed, b"elicit:page:a:end")
                .is_none()
        );
        // Rotation: the new key seals, the old one still opens.
        let rotated = SealingKeys::new(2, [5; 32]).also(1, [9; 32]);
        assert_eq!(
            rotated
                .open(&sealed, b"elicit:page:a:end")
                .unwrap()
                .as_slice(),
            b"hunter2"
        );
        let new = rotated.seal(b"x", b"p").unwrap();
        assert_eq!(new[0], 2);
        assert!(
            keys.open(&new, b"p").is_none(),
            "the old keys do not open the new key's blobs"
        );
    }
}
