//! The one list of a campaign lead's own profile fields (the contract's
//! campaign-lead strings): their wire names, labels, and how each is read
//! from a lead and written into a lead's input. The roster's edit form, the
//! CSV import's mapping, the template variables and the demo service all
//! take their fields from here, so a field added to the contract is added
//! once. `custom_fields` is not one of them: it is free-form, and each use
//! says what it does with it.

use crate::api::model::{CampaignLead, Channel, LeadInput};

/// A campaign lead's profile field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LeadField {
    /// `email`: the identity of an email campaign's lead.
    Email,
    /// `network_url`: the identity of a network campaign's lead.
    NetworkUrl,
    /// `first_name`.
    FirstName,
    /// `last_name`.
    LastName,
    /// `name`: the full name.
    Name,
    /// `company`.
    Company,
    /// `position`: the job at the company.
    Position,
    /// `headline`: the profile's headline.
    Headline,
}

impl LeadField {
    /// Every field, identities first: the order of the edit form and of
    /// the import mapping's choices.
    pub const ALL: [LeadField; 8] = [
        LeadField::Email,
        LeadField::NetworkUrl,
        LeadField::FirstName,
        LeadField::LastName,
        LeadField::Name,
        LeadField::Company,
        LeadField::Position,
        LeadField::Headline,
    ];

    /// Every field in the order the sequence editor offers them as
    /// variables: the ones a message greets and places people with first,
    /// the identities last.
    pub const IN_TEMPLATES: [LeadField; 8] = [
        LeadField::FirstName,
        LeadField::LastName,
        LeadField::Name,
        LeadField::Company,
        LeadField::Position,
        LeadField::Headline,
        LeadField::Email,
        LeadField::NetworkUrl,
    ];

    /// Its name on the wire and in templates (`first_name`).
    pub const fn name(self) -> &'static str {
        match self {
            LeadField::Email => "email",
            LeadField::NetworkUrl => "network_url",
            LeadField::FirstName => "first_name",
            LeadField::LastName => "last_name",
            LeadField::Name => "name",
            LeadField::Company => "company",
            LeadField::Position => "position",
            LeadField::Headline => "headline",
        }
    }

    /// Its label at the start of a line (`First name`, `Network URL`).
    pub fn label(self) -> &'static str {
        match self {
            LeadField::Email => "Email",
            LeadField::NetworkUrl => "Network URL",
            LeadField::FirstName => "First name",
            LeadField::LastName => "Last name",
            LeadField::Name => "Name",
            LeadField::Company => "Company",
            LeadField::Position => "Position",
            LeadField::Headline => "Headline",
        }
    }

    /// Its label inside a sentence (`first name`, `network URL`).
    pub fn label_in_text(self) -> String {
        let label = self.label();
        let mut chars = label.chars();
        chars.next().map_or_else(String::new, |c| {
            c.to_lowercase().chain(chars).collect::<String>()
        })
    }

    /// The field of a wire name (exact: `first_name`, not `First_Name`).
    pub fn parse(name: &str) -> Option<LeadField> {
        LeadField::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The field that identifies a lead of a campaign of `channel` (the
    /// one every lead must have).
    pub fn identity(channel: &Channel) -> LeadField {
        if *channel == Channel::Network {
            LeadField::NetworkUrl
        } else {
            LeadField::Email
        }
    }

    /// Its value in a lead.
    pub fn of(self, lead: &CampaignLead) -> &str {
        match self {
            LeadField::Email => &lead.email,
            LeadField::NetworkUrl => &lead.network_url,
            LeadField::FirstName => &lead.first_name,
            LeadField::LastName => &lead.last_name,
            LeadField::Name => &lead.name,
            LeadField::Company => &lead.company,
            LeadField::Position => &lead.position,
            LeadField::Headline => &lead.headline,
        }
    }

    /// Its place in a lead (the demo service writes an edit through it).
    pub fn of_mut(self, lead: &mut CampaignLead) -> &mut String {
        match self {
            LeadField::Email => &mut lead.email,
            LeadField::NetworkUrl => &mut lead.network_url,
            LeadField::FirstName => &mut lead.first_name,
            LeadField::LastName => &mut lead.last_name,
            LeadField::Name => &mut lead.name,
            LeadField::Company => &mut lead.company,
            LeadField::Position => &mut lead.position,
            LeadField::Headline => &mut lead.headline,
        }
    }

    /// Its place in a lead's input (an add or an edit): `None` leaves the
    /// field out of the body.
    pub fn in_input(self, input: &mut LeadInput) -> &mut Option<String> {
        match self {
            LeadField::Email => &mut input.email,
            LeadField::NetworkUrl => &mut input.network_url,
            LeadField::FirstName => &mut input.first_name,
            LeadField::LastName => &mut input.last_name,
            LeadField::Name => &mut input.name,
            LeadField::Company => &mut input.company,
            LeadField::Position => &mut input.position,
            LeadField::Headline => &mut input.headline,
        }
    }

    /// Its value in a lead's input, when the input sets it.
    pub fn of_input(self, input: &LeadInput) -> Option<&str> {
        match self {
            LeadField::Email => input.email.as_deref(),
            LeadField::NetworkUrl => input.network_url.as_deref(),
            LeadField::FirstName => input.first_name.as_deref(),
            LeadField::LastName => input.last_name.as_deref(),
            LeadField::Name => input.name.as_deref(),
            LeadField::Company => input.company.as_deref(),
            LeadField::Position => input.position.as_deref(),
            LeadField::Headline => input.headline.as_deref(),
        }
    }
}

/// Whether `s` looks like an email address: the service's own test (the
/// demo service refuses what fails it; the import leaves such rows out).
pub(crate) fn looks_like_email(s: &str) -> bool {
    let s = s.trim();
    match s.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains('@')
                && !s
                    .chars()
                    .any(|c| c.is_whitespace() || c.is_control() || c == ',')
        }
        None => false,
    }
}

/// Whether `s` looks like a profile URL: the service's own test, as
/// [`looks_like_email`].
pub(crate) fn looks_like_url(s: &str) -> bool {
    let s = s.trim();
    (s.starts_with("https://") || s.starts_with("http://"))
        && s.len() > 10
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A NUL (or any control character) is no part of an address: the
    /// import and the demo service both refuse it.
    #[test]
    fn control_characters_are_not_part_of_an_address() {
        assert!(looks_like_email("ana@x.io"));
        assert!(looks_like_url("https://network.example/in/ana"));
        for bad in ["ana@x.io\0", "a\0na@x.io", "ana@x\u{1}.io"] {
            assert!(!looks_like_email(bad), "{bad:?}");
        }
        assert!(!looks_like_url("https://network.example/in/\0ana"));
    }

    #[test]
    fn every_field_reads_back_what_was_written_under_its_own_name() {
        let mut lead = CampaignLead::default();
        let mut input = LeadInput::default();
        for f in LeadField::ALL {
            *f.of_mut(&mut lead) = format!("{}-value", f.name());
            *f.in_input(&mut input) = Some(format!("{}-input", f.name()));
        }
        assert_eq!(lead.first_name, "first_name-value");
        assert_eq!(lead.network_url, "network_url-value");
        assert_eq!(input.headline.as_deref(), Some("headline-input"));
        for f in LeadField::ALL {
            assert_eq!(f.of(&lead), format!("{}-value", f.name()));
            assert_eq!(
                f.of_input(&input),
                Some(format!("{}-input", f.name()).as_str())
            );
            assert_eq!(LeadField::parse(f.name()), Some(f));
        }
        // The wire shape agrees: the serialized input names each field so.
        let json = serde_json::to_value(&input).unwrap();
        for f in LeadField::ALL {
            assert_eq!(json[f.name()], format!("{}-input", f.name()));
        }
    }

    #[test]
    fn both_orders_hold_every_field_once() {
        let mut a = LeadField::ALL.to_vec();
        let mut t = LeadField::IN_TEMPLATES.to_vec();
        a.sort();
        t.sort();
        assert_eq!(a, t);
        a.dedup();
        assert_eq!(a.len(), 8);
    }

    #[test]
    fn labels_read_in_a_sentence() {
        assert_eq!(LeadField::NetworkUrl.label_in_text(), "network URL");
        assert_eq!(LeadField::FirstName.label_in_text(), "first name");
        assert_eq!(
            LeadField::identity(&Channel::Network),
            LeadField::NetworkUrl
        );
        assert_eq!(LeadField::identity(&Channel::Email), LeadField::Email);
        assert_eq!(LeadField::parse("frist_name"), None);
    }
}
