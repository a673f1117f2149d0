//! Layered configuration. Later layers win: built-in defaults, `config.toml`
//! in the platform config directory, `--config PATH`, the environment
//! (`OUTPOST_BASE_URL`, `OUTPOST_API_KEY`), then flags (`--base-url`,
//! `--key-stdin`). `config.example.toml` documents every key.

pub(crate) mod dns;
pub(crate) mod notify;
pub(crate) mod paths;
pub(crate) mod profile;
pub(crate) mod theme;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::api::{ApiKey, KeyError};
pub use paths::Paths;
pub(crate) use profile::Profiles;
pub(crate) use theme::ThemeFile;

/// A configuration problem, naming the file and key where there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A file could not be read.
    #[error("cannot read config file {path}: {reason}")]
    Read {
        /// The path of the config file that could not be read.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A file did not parse, or holds an unknown key or a bad value.
    #[error("config file {path}: {reason}")]
    Invalid {
        /// The path of the config file that did not parse.
        path: PathBuf,
        /// The key and what is allowed.
        reason: String,
    },
    /// A value from the environment or a flag is bad.
    #[error("{origin}: {reason}")]
    Value {
        /// Where the value came from.
        origin: String,
        /// What is allowed.
        reason: String,
    },
}

/// The keys of one config file; every key optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileConfig {
    /// Base address of the service.
    pub base_url: Option<String>,
    /// The key itself (prefer `api_key_env` or `OUTPOST_API_KEY`).
    pub api_key: Option<String>,
    /// Name of an environment variable holding the key.
    pub api_key_env: Option<String>,
    /// Whole-request time limit in seconds (1 to 600).
    pub request_timeout_secs: Option<u64>,
    /// Connection time limit in seconds (1 to 120).
    pub connect_timeout_secs: Option<u64>,
    /// `theme = "default"` / `"mono"`, or a `[theme]` table of role styles.
    pub theme: Option<ThemeFile>,
    /// Poll intervals.
    pub poll: Option<PollFile>,
    /// Key overrides: `[keys.SCOPE] "KEY" = "action"`.
    pub keys: Option<KeyTables>,
    /// Refuse every request that could change the service.
    pub read_only: Option<bool>,
    /// `[notify]`: the bell and desktop notifications.
    pub notify: Option<notify::NotifyFile>,
    /// `[dns]`: the resolver of the per-record DNS checks.
    pub dns: Option<dns::DnsFile>,
    /// `[profiles.NAME]` tables: other workspaces (see [`profile`]).
    #[serde(default, deserialize_with = "profile::tables")]
    pub profiles: Option<BTreeMap<String, profile::ProfileFile>>,
}

/// `[keys.SCOPE] "KEY" = "action"` tables: scope → key → action.
pub(crate) type KeyTables = BTreeMap<String, BTreeMap<String, String>>;

/// `[poll]` of a config file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PollFile {
    /// Domain verification watch, in seconds (the contract recommends 30 to
    /// 60; shorter only against a loopback service).
    pub domain_secs: Option<f64>,
    /// Live run status of a Lead Finder search, in seconds.
    pub run_secs: Option<f64>,
    /// Stats of an active campaign, in seconds.
    pub campaign_secs: Option<f64>,
    /// Live refresh of the inbox (thread list and the open thread), in
    /// seconds.
    pub inbox_secs: Option<f64>,
}

/// A base theme.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ThemeName {
    /// The 16 ANSI colours, following the terminal's palette.
    #[default]
    Default,
    /// No colours, only bold and reverse (as with `NO_COLOR`).
    Mono,
}

/// Poll intervals of the live views.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PollIntervals {
    /// Domain verification watch.
    pub domain: Duration,
    /// Running Lead Finder search.
    pub run: Duration,
    /// Active campaign stats.
    pub campaign: Duration,
    /// Inbox live refresh (new replies, unread counts).
    pub inbox: Duration,
}

impl PollIntervals {
    /// Defaults against the real service: inside the contract's guidance.
    pub const REMOTE: PollIntervals = PollIntervals {
        domain: Duration::from_secs(45),
        run: Duration::from_secs(10),
        campaign: Duration::from_secs(30),
        inbox: Duration::from_secs(30),
    };
    /// Defaults against the embedded demo service, which runs sped up.
    pub const DEMO: PollIntervals = PollIntervals {
        domain: Duration::from_secs(3),
        run: Duration::from_secs(1),
        campaign: Duration::from_secs(2),
        inbox: Duration::from_secs(2),
    };
}

/// A key override with the file it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyOverride {
    /// Scope (`global`, `domains`, `leads`, …).
    pub scope: String,
    /// Key combo text (`ctrl-s`, `y`, `shift-tab`).
    pub key: String,
    /// Action name.
    pub action: String,
    /// The file that set it.
    pub origin: PathBuf,
}

/// Flags that feed the configuration.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--config PATH`.
    pub config_path: Option<PathBuf>,
    /// `--base-url URL`.
    pub base_url: Option<String>,
    /// The key read from stdin with `--key-stdin`.
    pub key_from_stdin: Option<String>,
    /// `--profile NAME`.
    pub profile: Option<String>,
    /// `--read-only`.
    pub read_only: bool,
}

/// The resolved configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// Base URL, and where it came from.
    pub base_url: Option<(String, String)>,
    /// The key (or why there is none), and where it came from.
    pub key: Result<(ApiKey, String), KeyError>,
    /// Whole-request time limit.
    pub request_timeout: Duration,
    /// Connection time limit.
    pub connect_timeout: Duration,
    /// Poll intervals explicitly configured (`None` = use the defaults).
    pub poll: PollFile,
    /// The `[theme]` tables, layered.
    pub theme: ThemeFile,
    /// Key overrides, in file order.
    pub keys: Vec<KeyOverride>,
    /// The layers applied, in order.
    pub layers: Vec<String>,
    /// Warnings to show the user (permissions, clamped values).
    pub warnings: Vec<String>,
    /// How the dashboard gets attention (`[notify]`).
    pub notify: notify::Notify,
    /// The resolver of the per-record DNS checks (`[dns]`).
    pub dns: dns::Dns,
    /// Read-only mode (`--read-only`, `read_only = true` at the top or in
    /// the profile): the client sends only reads.
    pub read_only: bool,
    /// The profile in use and where it was chosen.
    pub profile: Option<(String, String)>,
    /// Every profile defined, for `:profile NAME`.
    pub profiles: Profiles,
}

impl Config {
    /// Poll intervals for a service, given whether it is on loopback:
    /// shorter than 30 s domain polling is accepted only there.
    pub fn poll_intervals(&self, loopback: bool, demo: bool) -> (PollIntervals, Vec<String>) {
        let base = if demo {
            PollIntervals::DEMO
        } else {
            PollIntervals::REMOTE
        };
        let mut warnings = Vec::new();
        let secs = |v: Option<f64>, d: Duration| v.map_or(d, Duration::from_secs_f64);
        let mut p = PollIntervals {
            domain: secs(self.poll.domain_secs, base.domain),
            run: secs(self.poll.run_secs, base.run),
            campaign: secs(self.poll.campaign_secs, base.campaign),
            inbox: secs(self.poll.inbox_secs, base.inbox),
        };
        if !loopback && p.domain < Duration::from_secs(30) {
            warnings.push(format!(
                "poll.domain_secs = {} is below the contract's 30 s guidance; using 30 s (shorter intervals are accepted only against a loopback service)",
                p.domain.as_secs_f64()
            ));
            p.domain = Duration::from_secs(30);
        }
        let floor = if loopback {
            Duration::from_millis(200)
        } else {
            Duration::from_secs(5)
        };
        for (name, d) in [
            ("run_secs", &mut p.run),
            ("campaign_secs", &mut p.campaign),
            ("inbox_secs", &mut p.inbox),
        ] {
            if *d < floor {
                warnings.push(format!(
                    "poll.{name} = {} is too tight; using {} s",
                    d.as_secs_f64(),
                    floor.as_secs_f64()
                ));
                *d = floor;
            }
        }
        (p, warnings)
    }
}

impl fmt::Display for ThemeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ThemeName::Default => "default",
            ThemeName::Mono => "mono",
        })
    }
}

/// Reads the environment variable `name`, treating empty as unset.
fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// Parses one config file's text; errors name the file, the key and what is
/// allowed.
pub(crate) fn parse_file(path: &Path, text: &str) -> Result<FileConfig, ConfigError> {
    let file: FileConfig = toml::from_str(text).map_err(|e| ConfigError::Invalid {
        path: path.to_path_buf(),
        reason: toml_reason(&e),
    })?;
    let invalid = |reason: String| ConfigError::Invalid {
        path: path.to_path_buf(),
        reason,
    };
    if let Some(t) = file.request_timeout_secs
        && !(1..=600).contains(&t)
    {
        return Err(invalid(format!(
            "request_timeout_secs = {t}: allowed 1 to 600"
        )));
    }
    if let Some(t) = file.connect_timeout_secs
        && !(1..=120).contains(&t)
    {
        return Err(invalid(format!(
            "connect_timeout_secs = {t}: allowed 1 to 120"
        )));
    }
    if let Some(p) = &file.poll {
        for (name, v) in [
            ("domain_secs", p.domain_secs),
            ("run_secs", p.run_secs),
            ("campaign_secs", p.campaign_secs),
            ("inbox_secs", p.inbox_secs),
        ] {
            if let Some(v) = v
                && !(v.is_finite() && v > 0.0 && v <= 3600.0)
            {
                return Err(invalid(format!(
                    "poll.{name} = {v}: allowed more than 0 and at most 3600 seconds (domain_secs: 30 to 60 recommended)"
                )));
            }
        }
    }
    if let Some(name) = &file.api_key_env
        && !valid_env_name(name)
    {
        return Err(invalid(format!(
            "api_key_env = {name:?}: must be an environment variable name (letters, digits, _)"
        )));
    }
    if let Some(r) = file.dns.as_ref().and_then(|d| d.resolver.as_deref()) {
        dns::parse_resolver(r).map_err(invalid)?;
    }
    if let Some(p) = &file.profiles {
        profile::check(p).map_err(invalid)?;
    }
    Ok(file)
}

/// Whether `name` can name an environment variable.
fn valid_env_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// toml's message, on one line: its first line names the key and what was
/// expected; the rest is a source excerpt.
fn toml_reason(e: &toml::de::Error) -> String {
    let msg = e.message().trim().to_owned();
    match e.span() {
        Some(span) => format!("{msg} (at byte {})", span.start),
        None => msg,
    }
}

/// Loads and merges every layer.
pub fn load(paths: &Paths, overrides: &Overrides) -> Result<Config, ConfigError> {
    let mut cfg = Config {
        base_url: None,
        key: Err(KeyError::Missing),
        request_timeout: Duration::from_secs(30),
        connect_timeout: Duration::from_secs(5),
        poll: PollFile::default(),
        theme: ThemeFile::default(),
        keys: Vec::new(),
        layers: vec!["defaults".into()],
        warnings: Vec::new(),
        read_only: false,
        notify: notify::Notify::default(),
        dns: dns::Dns::default(),
        profile: None,
        profiles: Profiles::default(),
    };

    let mut files: Vec<(PathBuf, bool)> = Vec::new();
    if let Some(p) = paths.config_file() {
        files.push((p, false));
    }
    if let Some(p) = &overrides.config_path {
        files.push((p.clone(), true));
    }
    for (path, required) in files {
        let text = match crate::files::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Err(ConfigError::Read {
                    path,
                    reason: e.to_string(),
                });
            }
        };
        let file = parse_file(&path, &text)?;
        apply_file(&mut cfg, &path, file)?;
        cfg.layers.push(path.display().to_string());
    }

    if let Some(url) = env_var("OUTPOST_BASE_URL") {
        cfg.base_url = Some((url, "env OUTPOST_BASE_URL".into()));
        cfg.layers.push("env OUTPOST_BASE_URL".into());
    }
    if let Some(key) = env_var("OUTPOST_API_KEY") {
        cfg.key = ApiKey::parse(&key).map(|k| (k, "env OUTPOST_API_KEY".into()));
        cfg.layers.push("env OUTPOST_API_KEY".into());
    }
    profile::select(&mut cfg, overrides)?;
    if let Some(url) = &overrides.base_url {
        cfg.base_url = Some((url.clone(), "--base-url".into()));
        cfg.layers.push("--base-url".into());
    }
    if let Some(key) = &overrides.key_from_stdin {
        cfg.key = ApiKey::parse(key).map(|k| (k, "--key-stdin".into()));
        cfg.layers.push("--key-stdin".into());
    }
    if overrides.read_only {
        cfg.read_only = true;
        cfg.layers.push("--read-only".into());
    }
    Ok(cfg)
}

fn apply_file(cfg: &mut Config, path: &Path, file: FileConfig) -> Result<(), ConfigError> {
    let origin = path.display().to_string();
    if let Some(url) = file.base_url {
        cfg.base_url = Some((url, origin.clone()));
    }
    if let Some(key) = file.api_key {
        cfg.key = ApiKey::parse(&key).map(|k| (k, origin.clone()));
        if let Some(w) = permission_warning(path) {
            cfg.warnings.push(w);
        }
    }
    if let Some(var) = file.api_key_env {
        match env_var(&var) {
            Some(key) => {
                cfg.key =
                    ApiKey::parse(&key).map(|k| (k, format!("env {var} (named in {origin})")));
            }
            None => {
                return Err(ConfigError::Invalid {
                    path: path.to_path_buf(),
                    reason: format!(
                        "api_key_env = \"{var}\": that environment variable is not set"
                    ),
                });
            }
        }
    }
    if let Some(t) = file.request_timeout_secs {
        cfg.request_timeout = Duration::from_secs(t);
    }
    if let Some(t) = file.connect_timeout_secs {
        cfg.connect_timeout = Duration::from_secs(t);
    }
    if let Some(theme) = file.theme {
        cfg.theme.layer(theme);
    }
    if let Some(p) = file.poll {
        cfg.poll.domain_secs = p.domain_secs.or(cfg.poll.domain_secs);
        cfg.poll.run_secs = p.run_secs.or(cfg.poll.run_secs);
        cfg.poll.campaign_secs = p.campaign_secs.or(cfg.poll.campaign_secs);
        cfg.poll.inbox_secs = p.inbox_secs.or(cfg.poll.inbox_secs);
    }
    cfg.keys.extend(key_overrides(path, file.keys));
    if let Some(r) = file.read_only {
        cfg.read_only = r;
    }
    if let Some(n) = file.notify {
        cfg.notify.layer(n);
    }
    if let Some(d) = &file.dns {
        cfg.dns.layer(d);
    }
    cfg.profiles.collect(path, file.profiles, &mut cfg.warnings);
    Ok(())
}

/// The `[keys.SCOPE]` tables of a file as overrides, in table order.
pub(crate) fn key_overrides(path: &Path, keys: Option<KeyTables>) -> Vec<KeyOverride> {
    let mut out = Vec::new();
    for (scope, keys) in keys.unwrap_or_default() {
        for (key, action) in keys {
            out.push(KeyOverride {
                scope: scope.clone(),
                key,
                action,
                origin: path.to_path_buf(),
            });
        }
    }
    out
}

/// Warns (as ssh does) when a file holding a key is readable by others.
#[cfg(unix)]
fn permission_warning(path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    (mode & 0o077 != 0).then(|| {
        format!(
            "{} holds an API key and is readable by group or others (mode {:o}); run: chmod 600 {}",
            path.display(),
            mode & 0o777,
            path.display()
        )
    })
}

#[cfg(not(unix))]
fn permission_warning(_path: &Path) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> PathBuf {
        PathBuf::from("/x/config.toml")
    }

    #[test]
    fn unknown_keys_name_the_file_and_what_is_allowed() {
        let err = parse_file(&p(), "base_urll = \"https://x\"").unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("config file /x/config.toml:"), "{text}");
        assert!(
            text.contains("base_urll") && text.contains("base_url"),
            "{text}"
        );
    }

    #[test]
    fn bad_values_say_what_is_allowed() {
        let text = parse_file(&p(), "request_timeout_secs = 0")
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("request_timeout_secs = 0: allowed 1 to 600"),
            "{text}"
        );
        let text = parse_file(&p(), "theme = \"neon\"")
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("neon") && text.contains("default") && text.contains("mono"),
            "{text}"
        );
        let text = parse_file(&p(), "request_timeout_secs = \"ten\"")
            .unwrap_err()
            .to_string();
        assert!(text.contains("invalid type"), "{text}");
        let text = parse_file(&p(), "[poll]\ndomain_secs = -1")
            .unwrap_err()
            .to_string();
        assert!(text.contains("poll.domain_secs"), "{text}");
        let text = parse_file(&p(), "[dns]\nresolver = \"dns.google\"")
            .unwrap_err()
            .to_string();
        assert!(
            text.starts_with(
                "config file /x/config.toml: dns.resolver = \"dns.google\": allowed an IP address"
            ),
            "{text}"
        );
        let text = parse_file(&p(), "[dns]\nresolvers = \"1.1.1.1\"")
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("resolvers") && text.contains("resolver"),
            "{text}"
        );
        let file = parse_file(&p(), "[dns]\nresolver = \"127.0.0.1:5353\"").unwrap();
        let mut dns = dns::Dns::default();
        dns.layer(&file.dns.unwrap_or_default());
        assert_eq!(
            dns.resolver.map(|a| a.to_string()).as_deref(),
            Some("127.0.0.1:5353")
        );
    }

    #[test]
    fn short_domain_polling_only_on_loopback() {
        let mut cfg = load(
            &Paths {
                config_dir: None,
                data_dir: None,
            },
            &Overrides::default(),
        )
        .unwrap();
        cfg.poll.domain_secs = Some(1.0);
        let (remote, warnings) = cfg.poll_intervals(false, false);
        assert_eq!(remote.domain, Duration::from_secs(30));
        assert_eq!(warnings.len(), 1);
        let (local, warnings) = cfg.poll_intervals(true, false);
        assert_eq!(local.domain, Duration::from_secs(1));
        assert!(warnings.is_empty());
    }

    #[test]
    fn layers_apply_in_order() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.toml"),
            "base_url = \"https://a.example\"\n[keys.global]\n\"x\" = \"quit\"\n",
        )
        .unwrap();
        let extra = dir.path().join("extra.toml");
        std::fs::write(&extra, "base_url = \"https://b.example\"\n").unwrap();
        let paths = Paths {
            config_dir: Some(dir.path().to_path_buf()),
            data_dir: None,
        };
        let cfg = load(
            &paths,
            &Overrides {
                config_path: Some(extra.clone()),
                ..Default::default()
            },
        )
        .unwrap();
        let (url, origin) = cfg.base_url.unwrap();
        assert_eq!(url, "https://b.example");
        assert_eq!(origin, extra.display().to_string());
        assert_eq!(cfg.layers.len(), 3);
        assert_eq!(cfg.keys[0].action, "quit");

        let cfg = load(
            &paths,
            &Overrides {
                base_url: Some("https://c.example".into()),
                key_from_stdin: Some("nope".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(cfg.base_url.unwrap().0, "https://c.example");
        assert_eq!(cfg.key.unwrap_err(), KeyError::BadPrefix);
    }

    #[cfg(unix)]
    #[test]
    fn a_readable_key_file_is_warned_about() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("config.toml");
        std::fs::write(&f, "api_key = \"pk_live_abcdefgh1234\"\n").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        let paths = Paths {
            config_dir: Some(dir.path().to_path_buf()),
            data_dir: None,
        };
        let cfg = load(&paths, &Overrides::default()).unwrap();
        assert!(cfg.warnings[0].contains("chmod 600"), "{:?}", cfg.warnings);
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(
            load(&paths, &Overrides::default())
                .unwrap()
                .warnings
                .is_empty()
        );
    }
}

#[cfg(test)]
mod example_tests {
    use super::*;

    /// The documented example must stay a valid config.
    #[test]
    fn config_example_parses() {
        let text = include_str!("../../config.example.toml");
        let file = parse_file(Path::new("config.example.toml"), text).expect("example parses");
        assert_eq!(file.request_timeout_secs, Some(30));
        assert_eq!(file.poll.and_then(|p| p.domain_secs), Some(45.0));
        assert_eq!(file.theme.and_then(|t| t.base), Some(ThemeName::Default));
        assert_eq!(file.dns, Some(dns::DnsFile { resolver: None }));
    }
}
