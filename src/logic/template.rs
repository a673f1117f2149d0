//! The template merge: a sequence step's subject and body filled in for one
//! lead. The dashboard's preview and the demo service's generated messages
//! use this one function, so what the preview shows is what the service
//! (as the demo plays it) sends.
//!
//! The grammar: a variable is `%` + a lead field's name ([`LeadField`]:
//! `%first_name%`, `%company%`, …) + `%`, or `%custom_fields.<key>%`. Any
//! other `%` is literal text: "50% off" stays "50% off", and so does an
//! unknown name (`%frist_name%` is sent as written). The text is read left
//! to right; a `%` that does not open a variable stays, and the scan goes on
//! right after it (so in "100%%company%" the second `%` opens the
//! variable). [`uses`] lists the variables a template uses, and the
//! `%name%` tokens that look like a variable but name no field, for the
//! launch preflight.

use serde_json::Value;

use super::lead_field::LeadField;
use crate::api::model::CampaignLead;
use crate::text::format::value_text;

/// What `%custom_fields.<key>%` starts with.
pub(crate) const CUSTOM_PREFIX: &str = "custom_fields.";

/// A variable of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Variable {
    /// `%first_name%` and the other lead fields.
    Field(LeadField),
    /// `%custom_fields.<key>%` (the key as written, possibly empty).
    Custom(String),
}

impl Variable {
    /// The variable a `%…%` token's inside names, if it names one.
    pub(crate) fn parse(name: &str) -> Option<Variable> {
        match name.strip_prefix(CUSTOM_PREFIX) {
            Some(key) => Some(Variable::Custom(key.to_owned())),
            None => LeadField::parse(name).map(Variable::Field),
        }
    }

    /// Its name inside the `%` (`first_name`, `custom_fields.plan`).
    pub(crate) fn name(&self) -> String {
        match self {
            Variable::Field(f) => f.name().to_owned(),
            Variable::Custom(key) => format!("{CUSTOM_PREFIX}{key}"),
        }
    }

    /// How it is written in a template (`%first_name%`).
    pub(crate) fn token(&self) -> String {
        format!("%{}%", self.name())
    }

    /// Its value for a lead: a field's text; a custom field's string as it
    /// is, nothing for a missing or null one, and any other JSON value as
    /// one line (a whole number without a fraction: `2009`, never
    /// `2009.0`).
    pub(crate) fn value(&self, lead: &CampaignLead) -> String {
        match self {
            Variable::Field(f) => f.of(lead).to_owned(),
            Variable::Custom(key) => match lead.custom_fields.get(key) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(v) => value_text(v),
            },
        }
    }
}

/// A piece of a template, as the scan reads it.
enum Piece<'a> {
    /// Text sent as it is.
    Text(&'a str),
    /// A variable.
    Var(Variable),
    /// A `%` that opens no variable (sent as it is), and the text between
    /// it and the next `%` (which may be an unknown name), if one follows.
    Stray(Option<&'a str>),
}

/// The pieces of a template, left to right.
fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('%') {
        if start > 0 {
            out.push(Piece::Text(&rest[..start]));
        }
        let after = &rest[start + 1..];
        let Some(end) = after.find('%') else {
            out.push(Piece::Stray(None));
            rest = after;
            continue;
        };
        let inside = &after[..end];
        match Variable::parse(inside) {
            Some(v) => {
                out.push(Piece::Var(v));
                rest = &after[end + 1..];
            }
            None => {
                out.push(Piece::Stray(Some(inside)));
                rest = after;
            }
        }
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// Whether the text between two `%` reads as a variable's name (letters,
/// digits, `_` and `.`, not starting with a digit or `.`): `frist_name`
/// does, " off and 20" does not.
fn looks_like_a_name(inside: &str) -> bool {
    let mut chars = inside.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// A template merged for one lead.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Merged {
    /// The text to send.
    pub text: String,
    /// The variables that came out empty (blank) for the lead, by name, in
    /// the order they first appear.
    pub empty: Vec<String>,
}

/// `template` filled in for `lead`.
pub(crate) fn merge(template: &str, lead: &CampaignLead) -> Merged {
    let mut m = Merged {
        text: String::with_capacity(template.len()),
        empty: Vec::new(),
    };
    for piece in pieces(template) {
        match piece {
            Piece::Text(t) => m.text.push_str(t),
            Piece::Stray(_) => m.text.push('%'),
            Piece::Var(v) => {
                let value = v.value(lead);
                if value.trim().is_empty() {
                    let name = v.name();
                    if !m.empty.contains(&name) {
                        m.empty.push(name);
                    }
                }
                m.text.push_str(&value);
            }
        }
    }
    m
}

/// What a template uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Uses {
    /// Its variables, each once, in the order they first appear.
    pub variables: Vec<Variable>,
    /// Tokens that look like a variable but name no lead field
    /// (`frist_name` of `%frist_name%`), each once, in order: sent as
    /// written.
    pub unknown: Vec<String>,
}

impl Uses {
    /// The custom-field keys it uses (`plan` of `%custom_fields.plan%`).
    #[cfg(test)]
    pub(crate) fn custom_keys(&self) -> impl Iterator<Item = &str> {
        self.variables.iter().filter_map(|v| match v {
            Variable::Custom(key) => Some(key.as_str()),
            Variable::Field(_) => None,
        })
    }
}

/// The variables `template` uses, and the unknown names in it.
pub(crate) fn uses(template: &str) -> Uses {
    let mut u = Uses::default();
    for piece in pieces(template) {
        match piece {
            Piece::Var(v) if !u.variables.contains(&v) => u.variables.push(v),
            Piece::Stray(Some(inside))
                if looks_like_a_name(inside) && !u.unknown.iter().any(|x| x == inside) =>
            {
                u.unknown.push(inside.to_owned());
            }
            Piece::Text(_) | Piece::Var(_) | Piece::Stray(_) => {}
        }
    }
    u
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn lead() -> CampaignLead {
        let mut l = CampaignLead {
            first_name: "Ana".into(),
            last_name: "López".into(),
            company: "Brightlabs".into(),
            email: "ana@brightlabs.io".into(),
            network_url: "https://network.example/in/ana".into(),
            ..CampaignLead::default()
        };
        l.custom_fields.insert("plan".into(), json!("Growth"));
        l.custom_fields.insert("founded".into(), json!(2009.0));
        l.custom_fields.insert("seats".into(), json!(12));
        l.custom_fields.insert("tags".into(), json!([1.0, "x"]));
        l.custom_fields.insert("gone".into(), json!(null));
        l
    }

    #[test]
    fn fields_and_custom_fields_are_filled_in() {
        assert_eq!(
            merge(
                "Hi %first_name% %last_name% of %company% (%custom_fields.plan%)",
                &lead()
            )
            .text,
            "Hi Ana López of Brightlabs (Growth)"
        );
        assert_eq!(
            merge("%email% / %network_url%", &lead()).text,
            "ana@brightlabs.io / https://network.example/in/ana"
        );
    }

    #[test]
    fn other_percent_text_is_literal() {
        let l = lead();
        assert_eq!(
            merge("50% off and 20% more", &l).text,
            "50% off and 20% more"
        );
        assert_eq!(
            merge("50% off for %company%, 100% sure", &l).text,
            "50% off for Brightlabs, 100% sure"
        );
        assert_eq!(merge("%frist_name%, hi", &l).text, "%frist_name%, hi");
        assert_eq!(merge("100%%company%", &l).text, "100%Brightlabs");
        assert_eq!(merge("%company", &l).text, "%company");
        assert_eq!(merge("%%", &l).text, "%%");
        assert_eq!(merge("%FIRST_NAME%", &l).text, "%FIRST_NAME%");
        assert_eq!(merge("%custom_fields%", &l).text, "%custom_fields%");
    }

    #[test]
    fn custom_values_read_as_people_write_them() {
        let l = lead();
        assert_eq!(
            merge(
                "since %custom_fields.founded%, %custom_fields.seats% seats, %custom_fields.tags%",
                &l
            )
            .text,
            "since 2009, 12 seats, [1,\"x\"]"
        );
        assert_eq!(
            merge("[%custom_fields.gone%][%custom_fields.missing%]", &l).text,
            "[][]"
        );
    }

    #[test]
    fn empty_variables_are_named_once_in_order() {
        let m = merge(
            "%headline% %custom_fields.missing% %first_name% %headline% %custom_fields.gone%",
            &lead(),
        );
        assert_eq!(m.text, "  Ana  ");
        assert_eq!(
            m.empty,
            ["headline", "custom_fields.missing", "custom_fields.gone"]
        );
    }

    #[test]
    fn uses_lists_variables_and_unknown_names() {
        let u = uses(
            "Hi %first_name%, 50% off at %company% for %custom_fields.plan% — %frist_name% %first_name% 20%%compnay%",
        );
        assert_eq!(
            u.variables,
            [
                Variable::Field(LeadField::FirstName),
                Variable::Field(LeadField::Company),
                Variable::Custom("plan".into()),
            ]
        );
        assert_eq!(u.unknown, ["frist_name", "compnay"]);
        assert_eq!(u.custom_keys().collect::<Vec<_>>(), ["plan"]);
        // Percentages are not names: nothing unknown.
        assert_eq!(uses("50% off and 20% more").unknown, Vec::<String>::new());
        assert_eq!(uses("up 5%, down 7%").unknown, Vec::<String>::new());
    }

    #[test]
    fn tokens_write_what_parse_reads() {
        for v in [
            Variable::Field(LeadField::NetworkUrl),
            Variable::Custom("plan".into()),
        ] {
            let token = v.token();
            assert_eq!(Variable::parse(token.trim_matches('%')), Some(v));
        }
        assert_eq!(Variable::parse("frist_name"), None);
    }
}
