//! A test's own copy of a fixture directory: made fresh for each test, removed
//! when the test passes, kept (and its path printed) when it fails.

use std::{
    collections::BTreeSet,
    fmt, fs, io,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use tempfile::TempDir;

/// A fresh copy of a fixture directory, private to one test.
///
/// [`Fixture::copy_from`] copies a directory (files, subdirectories and
/// symlinks) into a new temporary directory, so a server under test can write
/// into it without touching the original or another test's copy. Hand the
/// copy to the server with [`Server::fixture_dir`](crate::Server::fixture_dir),
/// which replaces `{{fixture}}` in the command line, environment, working
/// directory and URL with its path.
///
/// When the last clone of a `Fixture` is dropped the copy is removed — unless
/// the thread is panicking (the test failed), in which case the copy is kept
/// and its path printed to stderr, so the failure can be investigated.
/// [`#[mcp_test(fixture = "...")]`](crate::mcp_test) does all of this for you and
/// also keeps the copy when the test returns `Err`.
///
/// ```
/// use mcptest::Fixture;
///
/// # fn main() -> std::io::Result<()> {
/// let original = tempfile::tempdir()?;
/// std::fs::write(original.path().join("notes.txt"), "original")?;
///
/// let fixture = Fixture::copy_from(original.path())?;
/// fixture.write("notes.txt", "changed by the test")?;
/// assert_eq!(fixture.read_to_string("notes.txt")?, "changed by the test");
/// // The original is untouched.
/// assert_eq!(std::fs::read_to_string(original.path().join("notes.txt"))?, "original");
///
/// let copy = fixture.path().to_path_buf();
/// drop(fixture); // the test passed: the copy is removed
/// assert!(!copy.exists());
/// # Ok(()) }
/// ```
///
/// Without the attribute, connect with the copy like this:
///
/// ```no_run
/// use mcptest::{Fixture, Server};
///
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// let fixture = Fixture::copy_from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/notes"))?;
/// let mcp = Server::command("my-fs-server --root {{fixture}}")
///     .fixture_dir(fixture.path())
///     .connect()
///     .await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Fixture {
    inner: Arc<FixtureCopy>,
}

/// The temporary directories of the copies in use, for [`Fixture::remove_live`].
static LIVE: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// Set by [`Fixture::remove_live`]: no copy is made after it.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// The environment variable naming the home of kept copies.
pub const KEPT_DIR_ENV: &str = "MCPTEST_KEPT_DIR";

/// Where kept copies go (see [`Fixture::kept_path`]).
fn kept_home() -> PathBuf {
    if let Some(dir) = std::env::var_os(KEPT_DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    match target_tmp_dir() {
        Some(tmp) => tmp.join("mcptest-kept"),
        None => std::env::temp_dir().join("mcptest-kept"),
    }
}

/// The target directory's scratch space (`<target>/tmp`, cargo's
/// `CARGO_TARGET_TMPDIR`) when this program is a cargo test binary
/// (`<target>/<profile>/deps/<name>-<hash>`); `None` otherwise.
pub fn target_tmp_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    if deps.file_name()? != "deps" {
        return None;
    }
    Some(deps.parent()?.parent()?.join("tmp"))
}

/// `text` as part of a file name: each character outside `[A-Za-z0-9_-]`
/// becomes `_`, so the name stays one path component on every system.
///
/// ```
/// use mcptest_core::__support::file_name_part;
///
/// assert_eq!(file_name_part("tests/evals::Echo é!"), "tests_evals__Echo___");
/// ```
pub fn file_name_part(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A test's name as one path component of at most 100 characters.
fn component(name: &str) -> String {
    let name = file_name_part(name);
    // The end of a long name (`module::path::test`) tells tests apart.
    let skip = name.chars().count().saturating_sub(100);
    name.chars().skip(skip).collect()
}

struct FixtureCopy {
    path: PathBuf,
    /// The temporary directory holding the copy.
    root: PathBuf,
    /// The kept copy's directory name under the home.
    kept_name: String,
    source: Option<PathBuf>,
    dir: Mutex<Option<TempDir>>,
    /// Keep the copy however the test ends ([`Fixture::keep`]).
    keep: AtomicBool,
    /// The test failed without panicking (a suite test): keep the copy.
    failed: AtomicBool,
    /// Keep the copy when the test panics. False for `#[should_panic]` tests,
    /// for which a panic is the passing outcome.
    keep_on_panic: AtomicBool,
    /// The test's name, for the message printed when the copy is kept.
    test: Mutex<Option<String>>,
}

impl Fixture {
    /// Copies the directory `source` into a new temporary directory.
    ///
    /// Files keep their permissions; symlinks are copied as symlinks (on Unix),
    /// never followed. Fails when `source` is not a readable directory; the
    /// error names the path it could not read or write.
    pub fn copy_from(source: impl AsRef<Path>) -> io::Result<Fixture> {
        Fixture::create(Some(source.as_ref()), None)
    }

    /// An empty temporary directory, for a server that only writes.
    ///
    /// ```
    /// let scratch = mcptest::Fixture::empty()?;
    /// assert!(scratch.files()?.is_empty());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn empty() -> io::Result<Fixture> {
        Fixture::create(None, None)
    }

    /// Makes the copy of `source` (an empty directory for `None`) for the test
    /// called `test` (its path or name, for the directory's name and the
    /// messages about it).
    pub fn create(source: Option<&Path>, test: Option<&str>) -> io::Result<Fixture> {
        let prefix = match test.and_then(|t| t.rsplit("::").next()) {
            // Any name (a suite test's may hold spaces, slashes, braces)
            // becomes a safe file name part.
            Some(name) => format!(
                "mcptest-{}-",
                file_name_part(&name.chars().take(40).collect::<String>())
            ),
            None => "mcptest-".to_owned(),
        };
        // Made and registered under the lock, so an interrupted run's
        // `remove_live` either sees this copy or stops it being made.
        let dir = {
            let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
            if STOPPED.load(Ordering::SeqCst) {
                return Err(io::Error::new(
                    io::ErrorKind::Interrupted,
                    "the run was interrupted; no more fixture copies are made",
                ));
            }
            let dir = tempfile::Builder::new()
                .prefix(&prefix)
                .tempdir()
                .map_err(|e| with_context(e, "cannot create a temporary directory"))?;
            live.insert(dir.path().to_path_buf());
            dir
        };
        let copied = (|| -> io::Result<(Option<PathBuf>, PathBuf)> {
            let source = match source {
                Some(source) => {
                    let source = source.canonicalize().map_err(|e| {
                        with_context(
                            e,
                            &format!("cannot open the fixture directory {}", source.display()),
                        )
                    })?;
                    if !source.is_dir() {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidInput,
                            format!("the fixture {} is not a directory", source.display()),
                        ));
                    }
                    Some(source)
                }
                None => None,
            };
            // The copy keeps the directory's own name as its last component
            // (`<temp>/fixtures` for `tests/fixtures`), so a server that reports
            // its roots by name sees the same name as with the original.
            let path = match source.as_deref().and_then(Path::file_name) {
                Some(name) => {
                    let path = dir.path().join(name);
                    fs::create_dir(&path).map_err(|e| {
                        with_context(e, &format!("cannot create {}", path.display()))
                    })?;
                    copy_tree(source.as_deref().expect("named"), &path)?;
                    path
                }
                None => {
                    if let Some(source) = &source {
                        copy_tree(source, dir.path())?;
                    }
                    dir.path().to_path_buf()
                }
            };
            Ok((source, path))
        })();
        let (source, path) = match copied {
            Ok(copied) => copied,
            Err(e) => {
                // The directory goes with `dir`; so does its place in LIVE.
                LIVE.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(dir.path());
                return Err(e);
            }
        };
        let root = dir.path().to_path_buf();
        let kept_name = component(test.unwrap_or_else(|| {
            root.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("mcptest")
        }));
        Ok(Fixture {
            inner: Arc::new(FixtureCopy {
                path,
                root,
                kept_name,
                source,
                dir: Mutex::new(Some(dir)),
                keep: AtomicBool::new(false),
                failed: AtomicBool::new(false),
                keep_on_panic: AtomicBool::new(true),
                test: Mutex::new(test.map(str::to_owned)),
            }),
        })
    }

    /// The test failed without a panic (a runner that returns failures, such
    /// as a suite test): keep the copy and say so when it is dropped. The
    /// answer is where the copy will be once dropped (see
    /// [`Fixture::kept_path`]).
    pub fn keep_failed(&self) -> PathBuf {
        self.inner.failed.store(true, Ordering::SeqCst);
        self.kept_path()
    }

    /// Where the copy goes when it is kept: `<kept home>/<test name>` (with
    /// the source directory's name below it, as in [`Fixture::path`]). One
    /// copy per test name: a later kept copy of the same test replaces it,
    /// so the home stays bounded. The home is `$MCPTEST_KEPT_DIR` when set;
    /// under `cargo test`, `target/tmp/mcptest-kept` (the target dir's
    /// `CARGO_TARGET_TMPDIR`); otherwise `<temp dir>/mcptest-kept`.
    pub fn kept_path(&self) -> PathBuf {
        let root = kept_home().join(&self.inner.kept_name);
        match self.inner.path.strip_prefix(&self.inner.root) {
            Ok(below) if !below.as_os_str().is_empty() => root.join(below),
            _ => root,
        }
    }

    /// The home of kept copies (see [`Fixture::kept_path`]).
    ///
    /// ```
    /// assert!(mcptest::Fixture::kept_home().ends_with("mcptest-kept"));
    /// ```
    pub fn kept_home() -> PathBuf {
        kept_home()
    }

    /// Removes the copies of every test still running (an interrupted run:
    /// exiting on a signal runs no destructor), and answers how many there
    /// were. A copy already kept for a failed test is not touched. No copy
    /// is made afterwards: the process is about to exit.
    pub fn remove_live() -> usize {
        let live = {
            let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
            STOPPED.store(true, Ordering::SeqCst);
            std::mem::take(&mut *live)
        };
        live.iter()
            .filter(|root| fs::remove_dir_all(root).is_ok())
            .count()
    }

    /// Remove the copy also when the test panics (a `#[should_panic]` test).
    pub(crate) fn remove_on_panic(&self) {
        self.inner.keep_on_panic.store(false, Ordering::SeqCst);
    }

    /// The copy's path: `<temp>/<name of the source directory>` (a fresh
    /// temporary directory for [`Fixture::empty`]).
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// The directory the copy was made from (canonicalized), or `None` for
    /// [`Fixture::empty`].
    pub fn source(&self) -> Option<&Path> {
        self.inner.source.as_deref()
    }

    /// `relative` resolved inside the copy.
    pub fn join(&self, relative: impl AsRef<Path>) -> PathBuf {
        self.inner.path.join(relative)
    }

    /// Whether `relative` exists inside the copy.
    pub fn exists(&self, relative: impl AsRef<Path>) -> bool {
        self.join(relative).exists()
    }

    /// Reads a file of the copy as UTF-8 text; the error names the file.
    pub fn read_to_string(&self, relative: impl AsRef<Path>) -> io::Result<String> {
        let path = self.join(relative);
        fs::read_to_string(&path)
            .map_err(|e| with_context(e, &format!("cannot read {}", path.display())))
    }

    /// Writes a file of the copy, creating missing directories; the error
    /// names the file.
    pub fn write(&self, relative: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> io::Result<()> {
        let path = self.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| with_context(e, &format!("cannot create {}", parent.display())))?;
        }
        fs::write(&path, contents)
            .map_err(|e| with_context(e, &format!("cannot write {}", path.display())))
    }

    /// Every file in the copy (symlinks included, directories not), as sorted
    /// paths relative to it.
    pub fn files(&self) -> io::Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        list_files(&self.inner.path, Path::new(""), &mut files)?;
        files.sort();
        Ok(files)
    }

    /// Keeps the copy after the test however it ends, and prints its path
    /// then. Handy while writing a test, to look at what the server did.
    pub fn keep(&self) {
        self.inner.keep.store(true, Ordering::SeqCst);
    }
}

impl fmt::Debug for Fixture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fixture")
            .field("path", &self.inner.path)
            .field("source", &self.inner.source)
            .finish()
    }
}

impl Drop for FixtureCopy {
    fn drop(&mut self) {
        let Some(dir) = self.dir.get_mut().unwrap_or_else(|p| p.into_inner()).take() else {
            return;
        };
        let live = LIVE
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.root);
        if !live {
            // Removed by `remove_live` (an interrupted run).
            let _gone = dir.keep();
            return;
        }
        let failed =
            (std::thread::panicking() && *self.keep_on_panic.get_mut()) || *self.failed.get_mut();
        if failed || *self.keep.get_mut() {
            let kept_root = kept_home().join(&self.kept_name);
            let path = match move_dir(dir.keep(), &kept_root) {
                Ok(()) => match self.path.strip_prefix(&self.root) {
                    Ok(below) if !below.as_os_str().is_empty() => kept_root.join(below),
                    _ => kept_root,
                },
                Err(error) => {
                    eprintln!(
                        "mcptest: could not move the kept fixture copy to {}: {error}; it stays at {}",
                        kept_root.display(),
                        self.path.display()
                    );
                    self.path.clone()
                }
            };
            let path = &path;
            let test = self
                .test
                .get_mut()
                .unwrap_or_else(|p| p.into_inner())
                .take()
                .or_else(|| std::thread::current().name().map(str::to_owned))
                .map(|name| format!(" `{name}`"))
                .unwrap_or_default();
            let source = self
                .source
                .as_ref()
                .map(|s| format!(" (a copy of {})", s.display()))
                .unwrap_or_default();
            let why = if failed { "failed" } else { "asked to keep it" };
            eprintln!(
                "mcptest: the test{test} {why}; its fixture directory is kept at {}{source}",
                path.display()
            );
        } else if let Err(error) = dir.close() {
            eprintln!(
                "mcptest: could not remove the fixture directory {}: {error}",
                self.path.display()
            );
        }
    }
}

/// Moves the directory `from` to `to`, replacing what is there (the
/// copy an earlier run kept for the same test); across file systems, by
/// copying and removing.
fn move_dir(from: PathBuf, to: &Path) -> io::Result<()> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| with_context(e, &format!("cannot create {}", parent.display())))?;
    }
    // Another run of the same test (another front end, another process)
    // may keep its copy under the same name at the same moment: replace
    // and rename again, a few times, before falling back to a copy.
    for _ in 0..5 {
        match fs::remove_dir_all(to) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(with_context(e, &format!("cannot replace {}", to.display()))),
        }
        match fs::rename(&from, to) {
            Ok(()) => return Ok(()),
            Err(_) if to.exists() => continue,
            Err(_) => break,
        }
    }
    fs::create_dir(to).map_err(|e| with_context(e, &format!("cannot create {}", to.display())))?;
    copy_tree(&from, to)?;
    fs::remove_dir_all(&from)
        .map_err(|e| with_context(e, &format!("cannot remove {}", from.display())))
}

fn with_context(error: io::Error, context: &str) -> io::Error {
    io::Error::new(error.kind(), format!("{context}: {error}"))
}

/// Copies the contents of `from` into the existing directory `to`.
fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    let entries = fs::read_dir(from)
        .map_err(|e| with_context(e, &format!("cannot read {}", from.display())))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| with_context(e, &format!("cannot read {}", from.display())))?;
        let source = entry.path();
        let target = to.join(entry.file_name());
        let kind = entry
            .file_type()
            .map_err(|e| with_context(e, &format!("cannot inspect {}", source.display())))?;
        let copied = if kind.is_dir() {
            fs::create_dir(&target).and_then(|()| copy_tree(&source, &target))
        } else if kind.is_symlink() {
            copy_symlink(&source, &target)
        } else {
            fs::copy(&source, &target).map(drop)
        };
        copied.map_err(|e| {
            with_context(
                e,
                &format!("cannot copy {} to {}", source.display(), target.display()),
            )
        })?;
    }
    Ok(())
}

#[cfg(unix)]
fn copy_symlink(source: &Path, target: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(fs::read_link(source)?, target)
}

#[cfg(not(unix))]
fn copy_symlink(source: &Path, target: &Path) -> io::Result<()> {
    // Without portable symlinks, copy what the link points at.
    if source.is_dir() {
        fs::create_dir(target).and_then(|()| copy_tree(source, target))
    } else {
        fs::copy(source, target).map(drop)
    }
}

fn list_files(root: &Path, relative: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    let dir = root.join(relative);
    for entry in fs::read_dir(&dir)
        .map_err(|e| with_context(e, &format!("cannot read {}", dir.display())))?
    {
        let entry = entry?;
        let path = relative.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            list_files(root, &path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("a.txt"), "a").unwrap();
        fs::create_dir_all(dir.path().join("sub/deeper")).unwrap();
        fs::write(dir.path().join("sub/deeper/b.txt"), "b").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("a.txt", dir.path().join("link")).unwrap();
        dir
    }

    #[test]
    fn copies_files_directories_and_symlinks() {
        let original = sample();
        let fixture = Fixture::copy_from(original.path()).unwrap();
        assert_ne!(fixture.path(), original.path());
        assert_eq!(fixture.read_to_string("a.txt").unwrap(), "a");
        assert_eq!(fixture.read_to_string("sub/deeper/b.txt").unwrap(), "b");
        #[cfg(unix)]
        assert_eq!(
            fs::read_link(fixture.join("link")).unwrap(),
            Path::new("a.txt")
        );
        let mut expected = vec![PathBuf::from("a.txt"), PathBuf::from("sub/deeper/b.txt")];
        #[cfg(unix)]
        expected.push(PathBuf::from("link"));
        expected.sort();
        assert_eq!(fixture.files().unwrap(), expected);
        assert_eq!(
            fixture.source().unwrap(),
            original.path().canonicalize().unwrap()
        );
    }

    #[test]
    fn the_copy_keeps_the_directory_name() {
        let parent = tempfile::tempdir().unwrap();
        let original = parent.path().join("fixtures");
        fs::create_dir(&original).unwrap();
        fs::write(original.join("a.txt"), "a").unwrap();
        let fixture = Fixture::copy_from(&original).unwrap();
        assert_eq!(fixture.path().file_name().unwrap(), "fixtures");
        assert_ne!(fixture.path(), original.as_path());
        assert_eq!(fixture.read_to_string("a.txt").unwrap(), "a");
        let root = fixture.path().parent().unwrap().to_path_buf();
        drop(fixture);
        assert!(!root.exists(), "the whole temporary directory is removed");
    }

    #[test]
    fn writes_stay_in_the_copy() {
        let original = sample();
        let fixture = Fixture::copy_from(original.path()).unwrap();
        fixture.write("a.txt", "changed").unwrap();
        fixture.write("new/dir/c.txt", "c").unwrap();
        assert_eq!(fixture.read_to_string("a.txt").unwrap(), "changed");
        assert!(fixture.exists("new/dir/c.txt"));
        assert_eq!(
            fs::read_to_string(original.path().join("a.txt")).unwrap(),
            "a"
        );
        assert!(!original.path().join("new").exists());
    }

    #[test]
    fn removed_when_dropped_normally_even_with_clones() {
        let fixture = Fixture::copy_from(sample().path()).unwrap();
        let clone = fixture.clone();
        let path = fixture.path().to_path_buf();
        drop(fixture);
        assert!(path.exists(), "a clone still uses the copy");
        drop(clone);
        assert!(!path.exists());
    }

    #[test]
    fn kept_when_dropped_during_a_panic() {
        let fixture = Fixture::create(Some(sample().path()), Some("module::a_test")).unwrap();
        let path = fixture.path().to_path_buf();
        assert!(
            path.parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("mcptest-a_test-"),
            "{path:?}"
        );
        let kept = fixture.kept_path();
        let kept_root = kept_home().join("module__a_test");
        assert!(kept.starts_with(&kept_root), "{kept:?}");
        let result = std::panic::catch_unwind(move || {
            let _owned = fixture;
            panic!("the test fails");
        });
        assert!(result.is_err());
        assert!(kept.join("a.txt").exists(), "kept for inspection");
        assert!(!path.exists(), "moved out of the temp dir");
        fs::remove_dir_all(&kept_root).unwrap();
    }

    #[test]
    fn a_kept_copy_replaces_the_one_kept_before_for_the_same_test() {
        let name = "fixture::tests::replaced_copy";
        let parent = tempfile::tempdir().unwrap();
        let source = parent.path().join("fixtures");
        fs::create_dir(&source).unwrap();
        fs::write(source.join("a.txt"), "a").unwrap();
        let first = Fixture::create(Some(&source), Some(name)).unwrap();
        first.write("first.txt", "1").unwrap();
        let kept = first.keep_failed();
        drop(first);
        assert!(kept.join("first.txt").exists());
        let second = Fixture::create(Some(&source), Some(name)).unwrap();
        assert_eq!(second.keep_failed(), kept);
        drop(second);
        assert!(kept.join("a.txt").exists());
        assert!(!kept.join("first.txt").exists(), "the earlier copy is gone");
        assert_eq!(
            kept,
            kept_home().join("fixture__tests__replaced_copy/fixtures")
        );
        assert!(
            kept_home().ends_with("tmp/mcptest-kept"),
            "a cargo test keeps copies under the target dir: {:?}",
            kept_home()
        );
        fs::remove_dir_all(kept.parent().unwrap()).unwrap();
    }

    #[test]
    fn removed_during_a_panic_when_the_panic_is_expected() {
        let fixture = Fixture::copy_from(sample().path()).unwrap();
        fixture.remove_on_panic();
        let path = fixture.path().to_path_buf();
        let result = std::panic::catch_unwind(move || {
            let _owned = fixture;
            panic!("expected");
        });
        assert!(result.is_err());
        assert!(!path.exists());
    }

    #[test]
    fn keep_keeps_a_passing_copy() {
        let fixture = Fixture::create(None, Some("fixture::tests::keep_keeps")).unwrap();
        fixture.keep();
        let path = fixture.kept_path();
        drop(fixture);
        assert!(path.exists());
        fs::remove_dir_all(&path).unwrap();
    }

    #[test]
    fn a_missing_source_is_an_error_naming_it() {
        let error = Fixture::copy_from("/definitely/not/here").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        assert!(
            error.to_string().contains("/definitely/not/here"),
            "{error}"
        );
        let file = tempfile::NamedTempFile::new().unwrap();
        let error = Fixture::copy_from(file.path()).unwrap_err();
        assert!(error.to_string().contains("is not a directory"), "{error}");
    }

    #[test]
    fn read_errors_name_the_file() {
        let fixture = Fixture::empty().unwrap();
        let error = fixture.read_to_string("missing.txt").unwrap_err();
        assert!(error.to_string().contains("missing.txt"), "{error}");
    }
}
