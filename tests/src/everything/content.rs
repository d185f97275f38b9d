//! Media payloads for the `image` and `audio` tools.
//!
//! Both are real, decodable files rather than arbitrary bytes, so tests that check a
//! MIME type against the payload's magic number (or hand it to a decoder) pass.

use base64::{Engine, engine::general_purpose::STANDARD};

/// A 1x1 opaque red RGBA PNG, base64-encoded.
pub(super) const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAH/VscvDQAAAABJRU5ErkJggg==";

/// Eight samples of silence as 8 kHz, mono, 8-bit PCM WAV, base64-encoded.
pub(super) fn wav_base64() -> String {
    const SAMPLE_RATE: u32 = 8_000;
    // 8-bit PCM is unsigned, so 128 is the zero line.
    let samples = [128u8; 8];
    let data_len = samples.len() as u32;

    let mut wav = Vec::with_capacity(44 + samples.len());
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVE");
    wav.extend_from_slice(b"fmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // size of the PCM fmt chunk
    wav.extend_from_slice(&1u16.to_le_bytes()); // format: PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // channels
    wav.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    wav.extend_from_slice(&SAMPLE_RATE.to_le_bytes()); // byte rate = rate * 1 channel * 1 byte
    wav.extend_from_slice(&1u16.to_le_bytes()); // block align
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    wav.extend_from_slice(&samples);
    STANDARD.encode(wav)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_has_signature_and_ends_with_iend() {
        let png = STANDARD.decode(PNG_BASE64).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(&png[png.len() - 8..png.len() - 4], b"IEND");
    }

    #[test]
    fn wav_header_sizes_match_payload() {
        let wav = STANDARD.decode(wav_base64()).unwrap();
        assert_eq!(&wav[..4], b"RIFF");
        let riff_len = u32::from_le_bytes(wav[4..8].try_into().unwrap()) as usize;
        assert_eq!(riff_len + 8, wav.len());
        let data_len = u32::from_le_bytes(wav[40..44].try_into().unwrap()) as usize;
        assert_eq!(44 + data_len, wav.len());
    }
}
