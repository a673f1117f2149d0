//! Workspace profiles: `[profiles.NAME]` tables (`base_url`, `api_key` or
//! `api_key_env`, `read_only`), one per client workspace an agency runs.
//!
//! A profile is chosen with `--profile NAME` (or `OUTPOST_PROFILE`); its
//! keys win over the top-level keys of every file and over
//! `OUTPOST_BASE_URL` / `OUTPOST_API_KEY` (a warning says so when those are
//! set), because the profile was named on purpose; `--base-url` and
//! `--key-stdin` still win over it. Tables of the same name in several
//! files merge key by key, later files winning. A profile turns read-only
//! mode on, never off.
//!
//! Local state is kept per profile: the default workspace keeps
//! `DATA_DIR/state.json` (nothing is lost on upgrade), a profile uses
//! `DATA_DIR/profiles/NAME/state.json`. [`Config::workspace`] resolves the
//! workspace chosen at start; [`Config::switch_workspace`] resolves another
//! one for a live switch.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};

use super::{Config, ConfigError, Overrides, Paths, env_var, permission_warning};
use crate::api::{ApiKey, ClientConfig, KeyError};

/// Longest profile name (it names a directory).
pub(crate) const NAME_MAX: usize = 64;

/// What a profile name may hold, for messages.
const NAME_RULE: &str = "letters, digits, - and _ (1 to 64)";

/// `[profiles.NAME]` of a config file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProfileFile {
    /// Base address of the workspace's service.
    pub base_url: Option<String>,
    /// The key itself (prefer `api_key_env`).
    pub api_key: Option<String>,
    /// Name of an environment variable holding the key.
    pub api_key_env: Option<String>,
    /// `true`: this workspace is only ever read.
    pub read_only: Option<bool>,
}

/// Deserializes the `profiles` table, naming the profile in any error
/// (`profiles.acme: unknown field …`).
pub(super) fn tables<'de, D>(de: D) -> Result<Option<BTreeMap<String, ProfileFile>>, D::Error>
where
    D: Deserializer<'de>,
{
    use serde::de::Error;
    let raw: Option<BTreeMap<String, toml::Value>> = Option::deserialize(de)?;
    let Some(raw) = raw else {
        return Ok(None);
    };
    let mut out = BTreeMap::new();
    for (name, value) in raw {
        let profile: ProfileFile = value.try_into().map_err(|e: toml::de::Error| {
            D::Error::custom(format!("profiles.{name}: {}", e.message().trim()))
        })?;
        out.insert(name, profile);
    }
    Ok(Some(out))
}

/// Whether `name` can name a profile (and its state directory).
pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= NAME_MAX
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Checks the profiles of one file: names, one key source each, variable
/// names. The message names the key and what is allowed.
pub(super) fn check(profiles: &BTreeMap<String, ProfileFile>) -> Result<(), String> {
    for (name, p) in profiles {
        if !valid_name(name) {
            return Err(format!(
                "[profiles.{name:?}]: a profile name is {NAME_RULE}"
            ));
        }
        if p.api_key.is_some() && p.api_key_env.is_some() {
            return Err(format!(
                "profiles.{name}: set api_key or api_key_env, not both"
            ));
        }
        if let Some(var) = &p.api_key_env
            && !super::valid_env_name(var)
        {
            return Err(format!(
                "profiles.{name}.api_key_env = {var:?}: must be an environment variable name (letters, digits, _)"
            ));
        }
    }
    Ok(())
}

/// Where a profile's key comes from.
#[derive(Debug, Clone)]
pub enum KeySource {
    /// `api_key = "…"`, parsed (`Debug` masks it).
    Key {
        /// The key, or why it is not one.
        key: Result<ApiKey, KeyError>,
        /// The file that set it.
        file: PathBuf,
    },
    /// `api_key_env = "VAR"`, read when the profile is used.
    Env {
        /// The variable.
        var: String,
        /// The file that named it.
        file: PathBuf,
    },
}

/// A profile as the config files define it.
#[derive(Debug, Clone, Default)]
pub struct ProfileDef {
    /// Base URL and the file that set it.
    pub base_url: Option<(String, PathBuf)>,
    /// Where the key comes from.
    pub key: Option<KeySource>,
    /// `read_only`, when set.
    pub read_only: Option<bool>,
    /// The files defining it, in order.
    pub files: Vec<PathBuf>,
}

/// Every profile defined, and what a switch to another one starts from.
#[derive(Debug, Clone)]
pub struct Profiles {
    /// The profiles by name.
    pub defined: BTreeMap<String, ProfileDef>,
    /// The files read, for messages.
    files: Vec<PathBuf>,
    /// Base URL before any profile and flag (files, environment).
    base_url: Option<(String, String)>,
    /// The key before any profile and flag.
    key: Result<(ApiKey, String), KeyError>,
    /// Top-level `read_only` of the files.
    read_only: bool,
    /// `--read-only` was given: it holds for every profile.
    flag_read_only: bool,
}

impl Default for Profiles {
    fn default() -> Self {
        Profiles {
            defined: BTreeMap::new(),
            files: Vec::new(),
            base_url: None,
            key: Err(KeyError::Missing),
            read_only: false,
            flag_read_only: false,
        }
    }
}

impl Profiles {
    /// The names defined, sorted.
    pub fn names(&self) -> Vec<String> {
        self.defined.keys().cloned().collect()
    }

    /// Takes in the profiles of one file (merged key by key into tables of
    /// the same name from earlier files).
    pub(super) fn collect(
        &mut self,
        path: &Path,
        profiles: Option<BTreeMap<String, ProfileFile>>,
        warnings: &mut Vec<String>,
    ) {
        self.files.push(path.to_path_buf());
        for (name, p) in profiles.unwrap_or_default() {
            let def = self.defined.entry(name).or_default();
            def.files.push(path.to_path_buf());
            if let Some(url) = p.base_url {
                def.base_url = Some((url, path.to_path_buf()));
            }
            if let Some(key) = p.api_key {
                def.key = Some(KeySource::Key {
                    key: ApiKey::parse(&key),
                    file: path.to_path_buf(),
                });
                if let Some(w) = permission_warning(path)
                    && !warnings.contains(&w)
                {
                    warnings.push(w);
                }
            }
            if let Some(var) = p.api_key_env {
                def.key = Some(KeySource::Env {
                    var,
                    file: path.to_path_buf(),
                });
            }
            if let Some(r) = p.read_only {
                def.read_only = Some(r);
            }
        }
    }

    fn unknown(&self, name: &str, origin: &str) -> ConfigError {
        let files = self
            .files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let reason = if !valid_name(name) {
            format!("`{name}` is not a profile name ({NAME_RULE})")
        } else if self.defined.is_empty() {
            if files.is_empty() {
                format!(
                    "no profile `{name}`: no config file defines profiles (add a [profiles.{name}] table to config.toml)"
                )
            } else {
                format!(
                    "no profile `{name}`: none is defined (add a [profiles.{name}] table to {files})"
                )
            }
        } else {
            format!(
                "no profile `{name}`; defined: {} (in {files})",
                self.names().join(", ")
            )
        };
        ConfigError::Value {
            origin: origin.to_owned(),
            reason,
        }
    }
}

/// A profile's values, resolved.
struct Resolved {
    base_url: Option<(String, String)>,
    key: Option<Result<(ApiKey, String), KeyError>>,
    read_only: Option<bool>,
}

impl ProfileDef {
    /// Reads the key's variable now; names the file and key when it is not
    /// set.
    fn resolve(&self, name: &str) -> Result<Resolved, ConfigError> {
        let key = match &self.key {
            None => None,
            Some(KeySource::Key { key, file }) => Some(
                key.clone()
                    .map(|k| (k, format!("profile {name} in {}", file.display()))),
            ),
            Some(KeySource::Env { var, file }) => match env_var(var) {
                Some(text) => Some(ApiKey::parse(&text).map(|k| {
                    (
                        k,
                        format!("env {var} (named by profile {name} in {})", file.display()),
                    )
                })),
                None => {
                    return Err(ConfigError::Invalid {
                        path: file.clone(),
                        reason: format!(
                            "profiles.{name}.api_key_env = \"{var}\": that environment variable is not set"
                        ),
                    });
                }
            },
        };
        Ok(Resolved {
            base_url: self
                .base_url
                .as_ref()
                .map(|(u, f)| (u.clone(), format!("profile {name} in {}", f.display()))),
            key,
            read_only: self.read_only,
        })
    }
}

/// Picks the profile (`--profile`, else `OUTPOST_PROFILE`) and applies it
/// over the files and the environment; called before the flags apply.
pub(super) fn select(cfg: &mut Config, overrides: &Overrides) -> Result<(), ConfigError> {
    cfg.profiles.base_url = cfg.base_url.clone();
    cfg.profiles.key = cfg.key.clone();
    cfg.profiles.read_only = cfg.read_only;
    cfg.profiles.flag_read_only = overrides.read_only;
    let chosen = match overrides.profile.as_deref().map(str::trim) {
        Some(n) if !n.is_empty() => Some((n.to_owned(), "--profile".to_owned())),
        _ => {
            env_var("OUTPOST_PROFILE").map(|n| (n.trim().to_owned(), "env OUTPOST_PROFILE".into()))
        }
    };
    let Some((name, origin)) = chosen else {
        return Ok(());
    };
    let Some(def) = cfg.profiles.defined.get(&name) else {
        return Err(cfg.profiles.unknown(&name, &origin));
    };
    let r = def.resolve(&name)?;
    for (var, set) in [
        ("OUTPOST_BASE_URL", r.base_url.is_some()),
        ("OUTPOST_API_KEY", r.key.is_some()),
    ] {
        if set && env_var(var).is_some() {
            cfg.warnings.push(format!(
                "{var} is set, but profile {name} sets its own value, which is used"
            ));
        }
    }
    if let Some(url) = r.base_url {
        cfg.base_url = Some(url);
    }
    if let Some(key) = r.key {
        cfg.key = key;
    }
    cfg.read_only |= r.read_only.unwrap_or(false);
    cfg.layers.push(format!("profile {name} ({origin})"));
    cfg.profile = Some((name, origin));
    Ok(())
}

/// The local state file of a workspace: `DATA_DIR/state.json` for the
/// default one, `DATA_DIR/profiles/NAME/state.json` for a profile.
pub(crate) fn state_file(paths: &Paths, profile: Option<&str>) -> Option<PathBuf> {
    match profile {
        None => paths.state_file(),
        Some(name) => paths
            .data_dir
            .as_ref()
            .map(|d| d.join("profiles").join(name).join("state.json")),
    }
}

/// The local state file of a session: the workspace's ([`state_file`]),
/// or with `--demo` one of the demo's own (`DATA_DIR/demo/state.json`):
/// the demo's ids, drafts and preferences never mix with a workspace's.
pub(crate) fn session_state_file(
    paths: &Paths,
    profile: Option<&str>,
    demo: bool,
) -> Option<PathBuf> {
    if demo {
        paths
            .data_dir
            .as_ref()
            .map(|d| d.join("demo").join("state.json"))
    } else {
        state_file(paths, profile)
    }
}

/// Everything a session needs to open a workspace.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The profile (`None`: the default workspace).
    pub profile: Option<String>,
    /// How to build its client (base URL, key, timeouts, read-only).
    pub client: ClientConfig,
    /// Its local state file.
    pub state_file: Option<PathBuf>,
    /// Read-only mode.
    pub read_only: bool,
}

impl Config {
    /// The profile in use, if any.
    pub fn profile_name(&self) -> Option<&str> {
        self.profile.as_ref().map(|(n, _)| n.as_str())
    }

    /// The workspace chosen at start: the profile, environment and flags
    /// applied. Fails when no base URL or no valid key is configured.
    pub fn workspace(&self, paths: &Paths) -> Result<Workspace, ConfigError> {
        let name = self.profile_name().map(str::to_owned);
        self.build(
            paths,
            name,
            self.base_url.clone(),
            self.key.clone(),
            self.read_only,
        )
    }

    /// Another workspace of this config, for a live switch (`:profile
    /// NAME`; `None`: the default one). Built from the files and the
    /// environment with the profile's keys over them; `--base-url` and
    /// `--key-stdin` belonged to the workspace chosen at start and are not
    /// carried over, `--read-only` is.
    pub fn switch_workspace(
        &self,
        paths: &Paths,
        name: Option<&str>,
    ) -> Result<Workspace, ConfigError> {
        if name == self.profile_name() {
            return self.workspace(paths);
        }
        let p = &self.profiles;
        let read_only = p.read_only || p.flag_read_only;
        let Some(name) = name else {
            return self.build(paths, None, p.base_url.clone(), p.key.clone(), read_only);
        };
        let def = p
            .defined
            .get(name)
            .ok_or_else(|| p.unknown(name, ":profile"))?;
        let r = def.resolve(name)?;
        self.build(
            paths,
            Some(name.to_owned()),
            r.base_url.or_else(|| p.base_url.clone()),
            r.key.unwrap_or_else(|| p.key.clone()),
            read_only || r.read_only.unwrap_or(false),
        )
    }

    fn build(
        &self,
        paths: &Paths,
        profile: Option<String>,
        base_url: Option<(String, String)>,
        key: Result<(ApiKey, String), KeyError>,
        read_only: bool,
    ) -> Result<Workspace, ConfigError> {
        let within = profile
            .as_deref()
            .map_or(String::new(), |n| format!(" (profile {n})"));
        let (url, _) = base_url.ok_or_else(|| ConfigError::Value {
            origin: format!("base URL{within}"),
            reason: "none configured: set OUTPOST_BASE_URL, `base_url` in the config file (or in the profile's table), or --base-url; or try --demo".into(),
        })?;
        let (key, _) = key.map_err(|e| ConfigError::Value {
            origin: format!("API key{within}"),
            reason: e.to_string(),
        })?;
        let mut client = ClientConfig::new(url, key);
        client.request_timeout = self.request_timeout;
        client.connect_timeout = self.connect_timeout;
        client.read_only = read_only;
        Ok(Workspace {
            state_file: state_file(paths, profile.as_deref()),
            profile,
            client,
            read_only,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{load, parse_file};

    const CONFIG: &str = r#"
base_url = "https://main.example"
api_key = "pk_live_mainmainmain1111"

[profiles.acme]
base_url = "https://acme.example"
api_key = "pk_live_acmeacmeacme2222"

[profiles.globex]
api_key = "pk_live_globexglobex3333"
read_only = true
"#;

    fn setup(text: &str) -> (tempfile::TempDir, Paths) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), text).unwrap();
        let paths = Paths {
            config_dir: Some(dir.path().to_path_buf()),
            data_dir: Some(dir.path().join("data")),
        };
        (dir, paths)
    }

    fn with_profile(name: &str) -> Overrides {
        Overrides {
            profile: Some(name.into()),
            ..Overrides::default()
        }
    }

    #[test]
    fn the_demo_keeps_its_own_state_never_a_workspace_s() {
        let (_dir, paths) = setup(CONFIG);
        let data = paths.data_dir.clone().unwrap();
        for profile in [None, Some("work")] {
            assert_eq!(
                session_state_file(&paths, profile, true),
                Some(data.join("demo").join("state.json"))
            );
        }
        assert_eq!(session_state_file(&paths, None, false), paths.state_file());
        assert_eq!(
            session_state_file(&paths, Some("work"), false),
            state_file(&paths, Some("work"))
        );
    }

    #[test]
    fn a_profile_picks_its_service_key_and_state_file() {
        let (_dir, paths) = setup(CONFIG);
        let cfg = load(&paths, &Overrides::default()).unwrap();
        let ws = cfg.workspace(&paths).unwrap();
        assert_eq!(ws.profile, None);
        assert_eq!(ws.client.base_url, "https://main.example");
        assert_eq!(ws.client.key.masked(), "pk_live_…1111");
        assert_eq!(
            ws.state_file,
            paths.state_file(),
            "the default keeps its path"
        );
        assert!(!ws.read_only);

        let cfg = load(&paths, &with_profile("acme")).unwrap();
        assert_eq!(cfg.profile_name(), Some("acme"));
        let ws = cfg.workspace(&paths).unwrap();
        assert_eq!(ws.client.base_url, "https://acme.example");
        assert_eq!(ws.client.key.masked(), "pk_live_…2222");
        assert_eq!(
            ws.state_file,
            Some(
                paths
                    .data_dir
                    .clone()
                    .unwrap()
                    .join("profiles/acme/state.json")
            )
        );

        // A profile without a base URL keeps the top-level one; its own
        // read_only turns the mode on for it alone.
        let cfg = load(&paths, &with_profile("globex")).unwrap();
        let ws = cfg.workspace(&paths).unwrap();
        assert_eq!(ws.client.base_url, "https://main.example");
        assert_eq!(ws.client.key.masked(), "pk_live_…3333");
        assert!(ws.read_only && ws.client.read_only);
        assert!(cfg.layers.iter().any(|l| l == "profile globex (--profile)"));
    }

    #[test]
    fn flags_still_win_over_the_profile() {
        let (_dir, paths) = setup(CONFIG);
        let cfg = load(
            &paths,
            &Overrides {
                base_url: Some("http://127.0.0.1:9".into()),
                read_only: true,
                ..with_profile("acme")
            },
        )
        .unwrap();
        let ws = cfg.workspace(&paths).unwrap();
        assert_eq!(ws.client.base_url, "http://127.0.0.1:9");
        assert_eq!(ws.client.key.masked(), "pk_live_…2222");
        assert!(ws.read_only);
    }

    #[test]
    fn a_live_switch_resolves_another_profile_keeping_read_only() {
        let (_dir, paths) = setup(CONFIG);
        let cfg = load(
            &paths,
            &Overrides {
                base_url: Some("http://127.0.0.1:9".into()),
                read_only: true,
                ..Overrides::default()
            },
        )
        .unwrap();
        let acme = cfg.switch_workspace(&paths, Some("acme")).unwrap();
        assert_eq!(acme.profile.as_deref(), Some("acme"));
        assert_eq!(acme.client.base_url, "https://acme.example");
        assert!(acme.read_only, "--read-only holds for every profile");
        let globex = cfg.switch_workspace(&paths, Some("globex")).unwrap();
        assert_eq!(
            globex.client.base_url, "https://main.example",
            "--base-url belonged to the start's workspace"
        );
        let back = cfg.switch_workspace(&paths, None).unwrap();
        assert_eq!(
            back.client.base_url, "http://127.0.0.1:9",
            "the start's own"
        );
        let err = cfg.switch_workspace(&paths, Some("initech")).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                ":profile: no profile `initech`; defined: acme, globex (in {})",
                paths.config_file().unwrap().display()
            )
        );
    }

    #[test]
    fn an_unknown_profile_names_the_defined_ones_and_the_file() {
        let (_dir, paths) = setup(CONFIG);
        let err = load(&paths, &with_profile("initech"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("--profile: no profile `initech`; defined: acme, globex (in "),
            "{err}"
        );
        assert!(err.contains("config.toml"), "{err}");
        let (_dir, bare) = setup("base_url = \"https://x.example\"\n");
        let err = load(&bare, &with_profile("acme")).unwrap_err().to_string();
        assert!(err.contains("add a [profiles.acme] table to"), "{err}");
        let err = load(&bare, &with_profile("../etc"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("is not a profile name (letters, digits, - and _"),
            "{err}"
        );
    }

    #[test]
    fn profile_tables_are_checked_naming_file_and_key() {
        let p = Path::new("/x/config.toml");
        let err = parse_file(p, "[profiles.acme]\nbase_urll = \"https://a\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("config file /x/config.toml: profiles.acme: unknown field `base_urll`"),
            "{err}"
        );
        assert!(err.contains("api_key_env"), "what is allowed: {err}");
        let err = parse_file(p, "[profiles.\"a b\"]\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("a profile name is letters, digits"), "{err}");
        let err = parse_file(
            p,
            "[profiles.acme]\napi_key = \"pk_live_x\"\napi_key_env = \"K\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("profiles.acme: set api_key or api_key_env, not both"),
            "{err}"
        );
        let err = parse_file(p, "[profiles.acme]\napi_key_env = \"A-B\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("profiles.acme.api_key_env = \"A-B\""), "{err}");
        let err = parse_file(p, "[profiles.acme]\nread_only = \"yes\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("profiles.acme: invalid type"), "{err}");
    }

    #[test]
    fn an_unset_key_variable_is_an_error_only_for_the_profile_used() {
        let (_dir, paths) = setup(
            "base_url = \"https://x.example\"\n[profiles.acme]\napi_key_env = \"OUTPOST_TEST_UNSET_VAR_7f3a\"\n",
        );
        let cfg = load(&paths, &Overrides::default()).unwrap();
        let err = cfg
            .switch_workspace(&paths, Some("acme"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("profiles.acme.api_key_env = \"OUTPOST_TEST_UNSET_VAR_7f3a\": that environment variable is not set"),
            "{err}"
        );
        assert!(load(&paths, &with_profile("acme")).is_err());
    }

    #[test]
    fn tables_of_one_profile_merge_across_files() {
        let (dir, paths) = setup(CONFIG);
        let extra = dir.path().join("extra.toml");
        std::fs::write(
            &extra,
            "read_only = true\n[profiles.acme]\nbase_url = \"https://acme2.example\"\n",
        )
        .unwrap();
        let cfg = load(
            &paths,
            &Overrides {
                config_path: Some(extra),
                ..with_profile("acme")
            },
        )
        .unwrap();
        let ws = cfg.workspace(&paths).unwrap();
        assert_eq!(ws.client.base_url, "https://acme2.example");
        assert_eq!(
            ws.client.key.masked(),
            "pk_live_…2222",
            "the key of the first file"
        );
        assert!(ws.read_only, "read_only at the top of a file");
        assert_eq!(cfg.profiles.defined["acme"].files.len(), 2);
    }

    #[test]
    fn the_example_documents_profiles_and_read_only() {
        let text = include_str!("../../config.example.toml");
        let file = parse_file(Path::new("config.example.toml"), text).expect("example parses");
        assert_eq!(file.read_only, Some(false));
        let profiles = file.profiles.expect("profiles");
        assert_eq!(
            profiles.keys().collect::<Vec<_>>(),
            ["acme", "globex-audit"]
        );
        assert_eq!(profiles["globex-audit"].read_only, Some(true));
    }
}
