//! What the redactions look for and what they write in its place.

/// What the snapshot of a timestamp reads.
pub const TIMESTAMP_REDACTION: &str = "[timestamp]";
/// What the snapshot of a UUID reads.
pub const UUID_REDACTION: &str = "[uuid]";
/// What the snapshot of the fixture directory reads.
pub const FIXTURE_REDACTION: &str = "[fixture]";

/// RFC 3339 / ISO 8601 date-times (`2025-06-18T09:30:00Z`,
/// `2025-06-18 09:30:00.123+02:00`).
pub(super) const TIMESTAMP_PATTERN: &str =
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b";
/// UUIDs in their 8-4-4-4-12 hex form, any version.
pub(super) const UUID_PATTERN: &str =
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_and_uuids_match_their_usual_spellings() {
        let ts = regex::Regex::new(TIMESTAMP_PATTERN).unwrap();
        for s in [
            "2025-06-18T09:30:00Z",
            "2025-06-18T09:30:00.123456+02:00",
            "2025-06-18 09:30:00",
            "2025-06-18T09:30+0100",
        ] {
            assert_eq!(ts.replace_all(s, "[t]"), "[t]", "{s}");
        }
        assert_eq!(
            ts.replace_all("version 2025-06-18", "[t]"),
            "version 2025-06-18"
        );
        let uuid = regex::Regex::new(UUID_PATTERN).unwrap();
        assert_eq!(
            uuid.replace_all("id 67e55044-10b1-426f-9247-bb680e5fe0c8.", "[u]"),
            "id [u]."
        );
    }
}
