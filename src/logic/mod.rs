//! Domain logic below both front ends: rules the dashboard (`app`) and the
//! scripting commands (`script`) share, and, where the rule is the
//! service's own, the demo service too. Pure: no tokio, no clock, no files;
//! imports neither `app`, `ui`, `runtime` nor `script`. ("Domain" in the
//! sense of the problem's domain; the sending domains are `app::domains`.)

pub(crate) mod export;
pub(crate) mod import;
pub(crate) mod lead_field;
pub(crate) mod preflight;
pub(crate) mod proof;
pub(crate) mod reply;
pub(crate) mod resolve;
pub(crate) mod results;
pub(crate) mod template;
pub(crate) mod write;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The code lines (comments aside) of every file under `dir` that use
    /// one of the modules `above` (`crate::` + its name).
    fn uses_of(dir: &str, above: &[&str]) -> Vec<String> {
        fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        let above: Vec<String> = above.iter().map(|m| format!("crate::{m}")).collect();
        let mut files = Vec::new();
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut files);
        let mut hits = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if !code.starts_with("//") && above.iter().any(|a| code.contains(a)) {
                    hits.push(format!("{}:{}: {code}", f.display(), n + 1));
                }
            }
        }
        hits
    }

    /// The layers point down: this one imports no front end, and the CLI
    /// and the demo service reach the dashboard's rules through it, never
    /// through `app`.
    #[test]
    fn nothing_below_the_front_ends_imports_them() {
        let front = ["app", "ui", "runtime", "script"];
        assert_eq!(uses_of("src/logic", &front), Vec::<String>::new());
        assert_eq!(uses_of("src/script", &["app"]), Vec::<String>::new());
        assert_eq!(uses_of("src/demo", &["app"]), Vec::<String>::new());
    }
}
