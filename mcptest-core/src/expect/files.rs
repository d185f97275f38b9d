//! Checks on files a tool call may have touched, relative to the test's
//! fixture directory ([`ToolCall::fixture_dir`]). These are the only checks
//! that read anything: the files, at the time the check runs.

use std::{
    fmt, fs, io,
    path::{Component, Path, PathBuf},
};

use super::{
    check::{Check, Polarity},
    failure::{Evidence, Miss, Shown, Verdict},
};
use crate::wording::quoted;
use crate::{client::McpClient, client::ToolCall};

const NO_FIXTURE_DIR: &str = "this call has no fixture directory, so there is nothing to \
     resolve the path against: give the server one with Server::fixture_dir(dir) (and pass \
     {{fixture}} in its arguments)";

/// Joins `relative` onto `dir`, refusing paths that could leave it.
fn resolve(dir: &Path, relative: &str) -> Result<PathBuf, String> {
    let path = Path::new(relative);
    let inside = !relative.is_empty()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if inside {
        Ok(dir.join(path))
    } else {
        Err(format!(
            "{} must be a relative path inside the fixture directory (no leading /, no ..)",
            quoted(relative)
        ))
    }
}

/// What a file held at some moment.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileState {
    Missing,
    Bytes(Vec<u8>),
    /// Could not be read (or the path was refused), and why.
    Unreadable(String),
}

impl FileState {
    fn read(path: Result<PathBuf, String>) -> FileState {
        match path {
            Err(why) => FileState::Unreadable(why),
            Ok(path) => match fs::read(&path) {
                Ok(bytes) => FileState::Bytes(bytes),
                Err(e) if e.kind() == io::ErrorKind::NotFound => FileState::Missing,
                Err(e) => FileState::Unreadable(format!("cannot read {}: {e}", path.display())),
            },
        }
    }

    fn shown(&self, path: &str) -> Shown {
        let label = format!("file {path}");
        match self {
            FileState::Missing => Shown::plain(label, "does not exist"),
            FileState::Bytes(bytes) => Shown::text(label, String::from_utf8_lossy(bytes)),
            FileState::Unreadable(why) => Shown::plain(label, format!("unreadable: {why}")),
        }
    }

    fn as_text(&self) -> String {
        match self {
            FileState::Missing => "(does not exist)".into(),
            FileState::Bytes(bytes) => String::from_utf8_lossy(bytes).into_owned(),
            FileState::Unreadable(why) => format!("(unreadable: {why})"),
        }
    }
}

/// Reads `relative` in the call's fixture directory, or says why not.
fn read_in(call: &ToolCall, relative: &str) -> Result<FileState, Evidence> {
    let dir = call
        .fixture_dir()
        .ok_or_else(|| Evidence::new().note(NO_FIXTURE_DIR))?;
    let path = resolve(dir, relative).map_err(|why| Evidence::new().note(why))?;
    match FileState::read(Ok(path)) {
        FileState::Unreadable(why) => Err(Evidence::new().note(why)),
        state => Ok(state),
    }
}

/// The file at `path` (relative to the fixture directory) exists and
/// contains `text`. Under [`not`](super::not) (and in the fluent
/// `file_not_contains`) it does not: a file that does not exist passes, one
/// that cannot be read fails either way.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// # std::fs::write(dir.path().join("notes.txt"), "buy milk").unwrap();
/// # let call = mcptest::expect::samples::add_call()
/// #     .with_origin(mcptest::Origin::with_fixture_dir(dir.path()));
/// // after a call that wrote notes.txt into the fixture directory:
/// call.file_contains("notes.txt", "milk")
///     .file_not_contains("notes.txt", "password");
/// ```
///
/// ```should_panic
/// # let dir = tempfile::tempdir().unwrap();
/// # std::fs::write(dir.path().join("notes.txt"), "buy milk").unwrap();
/// # let call = mcptest::expect::samples::add_call()
/// #     .with_origin(mcptest::Origin::with_fixture_dir(dir.path()));
/// call.file_contains("notes.txt", "eggs");
/// ```
///
/// ```should_panic
/// # let dir = tempfile::tempdir().unwrap();
/// # std::fs::write(dir.path().join("notes.txt"), "password=hunter2").unwrap();
/// # let call = mcptest::expect::samples::add_call()
/// #     .with_origin(mcptest::Origin::with_fixture_dir(dir.path()));
/// call.file_not_contains("notes.txt", "password");
/// ```
pub fn file_contains(path: &str, text: &str) -> impl Check<ToolCall> {
    FileContains {
        path: path.to_owned(),
        text: text.to_owned(),
    }
}

struct FileContains {
    path: String,
    text: String,
}

impl Check<ToolCall> for FileContains {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("contains", "does not contain");
        format!("file {} {verb} {}", self.path, quoted(&self.text))
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        match read_in(call, &self.path) {
            Ok(state) => {
                let found = match &state {
                    FileState::Bytes(b) => String::from_utf8_lossy(b).find(&self.text),
                    _ => None,
                };
                let mut evidence = Evidence::new().actual(state.shown(&self.path));
                if let Some(at) = found {
                    evidence = evidence.note(format!("found at byte {at}"));
                }
                Verdict::from_bool(found.is_some(), evidence)
            }
            Err(evidence) => Verdict::cannot_judge(evidence),
        }
    }
}

/// Something exists at `path` (relative to the fixture directory): a file,
/// a directory, a symlink. Under [`not`](super::not) (and in the fluent
/// `file_not_exists`), nothing does.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// # std::fs::write(dir.path().join("notes.txt"), "buy milk").unwrap();
/// # let call = mcptest::expect::samples::add_call()
/// #     .with_origin(mcptest::Origin::with_fixture_dir(dir.path()));
/// call.file_exists("notes.txt").file_not_exists("deleted.txt");
/// ```
///
/// ```should_panic
/// # let dir = tempfile::tempdir().unwrap();
/// # std::fs::write(dir.path().join("deleted.txt"), "still here").unwrap();
/// # let call = mcptest::expect::samples::add_call()
/// #     .with_origin(mcptest::Origin::with_fixture_dir(dir.path()));
/// call.file_not_exists("deleted.txt");
/// ```
pub fn file_exists(path: &str) -> impl Check<ToolCall> {
    FileExists {
        path: path.to_owned(),
    }
}

struct FileExists {
    path: String,
}

impl Check<ToolCall> for FileExists {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("exists", "does not exist");
        format!("file {} {verb}", self.path)
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        let Some(dir) = call.fixture_dir() else {
            return Verdict::cannot_judge(Evidence::new().note(NO_FIXTURE_DIR));
        };
        let path = match resolve(dir, &self.path) {
            Ok(path) => path,
            Err(why) => return Verdict::cannot_judge(Evidence::new().note(why)),
        };
        // A directory or a dangling symlink is "something" too.
        if fs::symlink_metadata(&path).is_err() {
            return Verdict::fail(Evidence::new().actual(FileState::Missing.shown(&self.path)));
        }
        let state = FileState::read(Ok(path.clone()));
        let shown = match state {
            FileState::Unreadable(_) if path.is_dir() => {
                Shown::plain(format!("file {}", self.path), "is a directory")
            }
            state => state.shown(&self.path),
        };
        Verdict::pass(Evidence::new().actual(shown))
    }
}

/// Files as they were at one moment, to compare with later: take it before
/// a call, check [`files_unchanged`] after.
///
/// ```
/// use mcptest::expect::FileSnapshot;
/// # let dir = tempfile::tempdir().unwrap();
/// # std::fs::write(dir.path().join("config.toml"), "debug = false").unwrap();
/// let before = FileSnapshot::take(dir.path(), ["config.toml", "absent.txt"]);
/// // FileSnapshot::of(&mcp, [..]) takes it in the client's fixture directory.
/// assert_eq!(before.paths().count(), 2);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct FileSnapshot {
    /// The directory, or why there is none.
    dir: Result<PathBuf, String>,
    files: Vec<(String, FileState)>,
}

impl FileSnapshot {
    /// Reads `paths` (relative to `dir`) now. Missing files are recorded as
    /// missing, so "unchanged" later means "still missing".
    pub fn take<P: AsRef<str>>(dir: impl AsRef<Path>, paths: impl IntoIterator<Item = P>) -> Self {
        let dir = dir.as_ref().to_path_buf();
        let files = paths
            .into_iter()
            .map(|p| {
                let p = p.as_ref().to_owned();
                let state = FileState::read(resolve(&dir, &p));
                (p, state)
            })
            .collect();
        FileSnapshot {
            dir: Ok(dir),
            files,
        }
    }

    /// Reads `paths` in the client's fixture directory now
    /// ([`McpClient::fixture_dir`]). Without one, the later check fails
    /// saying so.
    pub fn of<P: AsRef<str>>(mcp: &McpClient, paths: impl IntoIterator<Item = P>) -> Self {
        match mcp.fixture_dir() {
            Some(dir) => FileSnapshot::take(dir, paths),
            None => FileSnapshot {
                dir: Err(NO_FIXTURE_DIR.replace("this call", "the client")),
                files: paths
                    .into_iter()
                    .map(|p| (p.as_ref().to_owned(), FileState::Missing))
                    .collect(),
            },
        }
    }

    /// The paths in the snapshot, relative to its directory.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(p, _)| p.as_str())
    }
}

impl fmt::Debug for FileSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileSnapshot")
            .field("dir", &self.dir)
            .field("paths", &self.paths().collect::<Vec<_>>())
            .finish()
    }
}

/// Every file in `before` is as it was when the snapshot was taken: same
/// bytes, or still missing. Each changed file is reported, with a diff.
///
/// ```
/// use mcptest::expect::FileSnapshot;
/// # let dir = tempfile::tempdir().unwrap();
/// # std::fs::write(dir.path().join("config.toml"), "debug = false").unwrap();
/// # let call = mcptest::expect::samples::add_call()
/// #     .with_origin(mcptest::Origin::with_fixture_dir(dir.path()));
/// let before = FileSnapshot::take(dir.path(), ["config.toml"]);
/// // let call = mcp.call_tool("read_config", json!({})).await;
/// call.files_unchanged(&before);
/// ```
///
/// ```should_panic
/// # use mcptest::expect::FileSnapshot;
/// # let dir = tempfile::tempdir().unwrap();
/// # std::fs::write(dir.path().join("config.toml"), "debug = false").unwrap();
/// # let call = mcptest::expect::samples::add_call()
/// #     .with_origin(mcptest::Origin::with_fixture_dir(dir.path()));
/// let before = FileSnapshot::take(dir.path(), ["config.toml"]);
/// std::fs::write(dir.path().join("config.toml"), "debug = true").unwrap();
/// call.files_unchanged(&before);
/// ```
pub fn files_unchanged(before: &FileSnapshot) -> impl Check<ToolCall> + '_ {
    FilesUnchanged(before)
}

struct FilesUnchanged<'a>(&'a FileSnapshot);

impl Check<ToolCall> for FilesUnchanged<'_> {
    fn describe(&self, polarity: Polarity) -> String {
        let paths: Vec<&str> = self.0.paths().collect();
        let which = polarity.pick("files unchanged", "some of these files changed");
        format!("{which} since before the call: {}", paths.join(", "))
    }
    fn evaluate(&self, _call: &ToolCall) -> Verdict {
        let dir = match &self.0.dir {
            Ok(dir) => dir,
            Err(why) => return Verdict::cannot_judge(Evidence::new().note(why.clone())),
        };
        let mut misses = Vec::new();
        for (path, before) in &self.0.files {
            let now = FileState::read(resolve(dir, path));
            if &now == before {
                continue;
            }
            let note = match (before, &now) {
                (FileState::Missing, _) => "it did not exist before the call".to_owned(),
                (_, FileState::Missing) => "it was deleted".to_owned(),
                (FileState::Unreadable(why), _) => {
                    format!("before the call it was unreadable: {why}")
                }
                (FileState::Bytes(old), _) => {
                    let old = String::from_utf8_lossy(old);
                    if !old.contains('\n') && old.chars().count() <= 60 {
                        format!(
                            "its contents changed; before the call they were {}",
                            quoted(&old)
                        )
                    } else {
                        "its contents changed".to_owned()
                    }
                }
            };
            misses.push(Miss::new(
                format!("file {path} unchanged since before the call"),
                Evidence::new()
                    .actual(now.shown(path))
                    .note(note)
                    .diff(before.as_text(), now.as_text()),
            ));
        }
        Verdict::from_misses(misses)
    }
}
