//! Where Outpost keeps its files: the platform config and data directories
//! (`directories::ProjectDirs`), overridable for tests and portable setups
//! with `OUTPOST_CONFIG_DIR` and `OUTPOST_DATA_DIR`.

use std::path::PathBuf;

/// The directories Outpost uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// Holds `config.toml`.
    pub config_dir: Option<PathBuf>,
    /// Holds the state file and the log.
    pub data_dir: Option<PathBuf>,
}

impl Paths {
    /// Resolves the directories from the environment and the platform.
    pub fn resolve() -> Paths {
        let project = directories::ProjectDirs::from("dev", "outpost", "outpost");
        let env_dir = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Paths {
            config_dir: env_dir("OUTPOST_CONFIG_DIR")
                .or_else(|| project.as_ref().map(|p| p.config_dir().to_path_buf())),
            data_dir: env_dir("OUTPOST_DATA_DIR")
                .or_else(|| project.as_ref().map(|p| p.data_dir().to_path_buf())),
        }
    }

    /// The platform config file, `config.toml` in the config directory.
    pub fn config_file(&self) -> Option<PathBuf> {
        self.config_dir.as_ref().map(|d| d.join("config.toml"))
    }

    /// The local state file.
    pub fn state_file(&self) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join("state.json"))
    }

    /// The log file.
    pub fn log_file(&self) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join("outpost.log"))
    }
}
