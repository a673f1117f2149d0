//! Every field of the company profile, once: its section, label, request
//! path and kind, and typed access to it in a [`PutContext`]. The read
//! view, the form, the diff and the mapping of the service's field paths
//! back to the form all walk this one list, so none of them can miss a
//! field of the contract.

use serde_json::{Map, Value};

use crate::api::model::PutContext;

/// A section of the profile, in the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// The `profile` object: who the workspace is.
    Profile,
    /// `context.user`.
    User,
    /// `context.company`.
    Company,
    /// `context.content`.
    Content,
    /// `context.market`.
    Market,
    /// `context.extra`: free-form JSON.
    Extra,
}

impl Section {
    /// Every section, in the order shown.
    pub const ALL: [Section; 6] = [
        Section::Profile,
        Section::User,
        Section::Company,
        Section::Content,
        Section::Market,
        Section::Extra,
    ];

    /// Heading.
    pub fn title(self) -> &'static str {
        match self {
            Section::Profile => "Profile",
            Section::User => "User",
            Section::Company => "Company",
            Section::Content => "Content",
            Section::Market => "Market",
            Section::Extra => "Extra",
        }
    }

    /// One line under the heading in the form.
    pub fn help(self) -> &'static str {
        match self {
            Section::Profile => "the profile object: who the workspace is",
            Section::User => "context.user: the person behind the outreach",
            Section::Company => "context.company: what you sell and why it matters",
            Section::Content => "context.content: how you post on the network",
            Section::Market => "context.market: who you sell to (ICP)",
            Section::Extra => "context.extra: any JSON object downstream workflows read",
        }
    }
}

/// How a field is edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A short string: one line.
    Line,
    /// A long string: several wrapped lines.
    Long,
    /// An array of strings: an editable list.
    List,
    /// A JSON object.
    Json,
}

/// One field of the profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FieldId {
    /// `profile.firstName`.
    FirstName,
    /// `profile.lastName`.
    LastName,
    /// `profile.companyName`.
    CompanyName,
    /// `profile.website`.
    Website,
    /// `context.user.professionalBackground`.
    ProfessionalBackground,
    /// `context.company.overview`.
    Overview,
    /// `context.company.product`.
    Product,
    /// `context.company.problemSolved`.
    ProblemSolved,
    /// `context.company.differentiators`.
    Differentiators,
    /// `context.company.networkPresence`.
    NetworkPresence,
    /// `context.content.networkVoice`.
    NetworkVoice,
    /// `context.content.preferredTone`.
    PreferredTone,
    /// `context.content.postingCadence`.
    PostingCadence,
    /// `context.content.recommendedTopics`.
    RecommendedTopics,
    /// `context.content.contentFormats`.
    ContentFormats,
    /// `context.content.topicsToAvoid`.
    TopicsToAvoid,
    /// `context.market.targetAudience`.
    TargetAudience,
    /// `context.market.industryContext`.
    IndustryContext,
    /// `context.market.icpJobTitles`.
    IcpJobTitles,
    /// `context.market.icpIndustries`.
    IcpIndustries,
    /// `context.market.icpCompanySizes`.
    IcpCompanySizes,
    /// `context.market.icpPainPoints`.
    IcpPainPoints,
    /// `context.market.icpKeywords`.
    IcpKeywords,
    /// `context.extra`.
    Extra,
}

/// Every field, in the order shown.
pub(crate) const ALL: [FieldId; 24] = [
    FieldId::FirstName,
    FieldId::LastName,
    FieldId::CompanyName,
    FieldId::Website,
    FieldId::ProfessionalBackground,
    FieldId::Overview,
    FieldId::Product,
    FieldId::ProblemSolved,
    FieldId::Differentiators,
    FieldId::NetworkPresence,
    FieldId::NetworkVoice,
    FieldId::PreferredTone,
    FieldId::PostingCadence,
    FieldId::RecommendedTopics,
    FieldId::ContentFormats,
    FieldId::TopicsToAvoid,
    FieldId::TargetAudience,
    FieldId::IndustryContext,
    FieldId::IcpJobTitles,
    FieldId::IcpIndustries,
    FieldId::IcpCompanySizes,
    FieldId::IcpPainPoints,
    FieldId::IcpKeywords,
    FieldId::Extra,
];

/// The value of a field, borrowed from a profile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val<'a> {
    /// A string.
    Text(&'a str),
    /// An array of strings.
    List(&'a [String]),
    /// A JSON object.
    Json(&'a Map<String, Value>),
}

impl FieldId {
    /// The section it belongs to.
    pub fn section(self) -> Section {
        use FieldId as F;
        match self {
            F::FirstName | F::LastName | F::CompanyName | F::Website => Section::Profile,
            F::ProfessionalBackground => Section::User,
            F::Overview
            | F::Product
            | F::ProblemSolved
            | F::Differentiators
            | F::NetworkPresence => Section::Company,
            F::NetworkVoice
            | F::PreferredTone
            | F::PostingCadence
            | F::RecommendedTopics
            | F::ContentFormats
            | F::TopicsToAvoid => Section::Content,
            F::TargetAudience
            | F::IndustryContext
            | F::IcpJobTitles
            | F::IcpIndustries
            | F::IcpCompanySizes
            | F::IcpPainPoints
            | F::IcpKeywords => Section::Market,
            F::Extra => Section::Extra,
        }
    }

    /// How it is edited.
    pub fn kind(self) -> Kind {
        use FieldId as F;
        match self {
            F::FirstName
            | F::LastName
            | F::CompanyName
            | F::Website
            | F::PreferredTone
            | F::PostingCadence => Kind::Line,
            F::RecommendedTopics
            | F::ContentFormats
            | F::TopicsToAvoid
            | F::IcpJobTitles
            | F::IcpIndustries
            | F::IcpCompanySizes
            | F::IcpPainPoints
            | F::IcpKeywords => Kind::List,
            F::Extra => Kind::Json,
            _ => Kind::Long,
        }
    }

    /// The label shown.
    pub fn label(self) -> &'static str {
        self.names().0
    }

    /// The path of the field in the `PUT /api/context` body.
    pub fn path(self) -> &'static str {
        self.names().1
    }

    /// The key of the field in a local draft.
    pub fn key(self) -> &'static str {
        self.path()
    }

    fn names(self) -> (&'static str, &'static str) {
        use FieldId as F;
        match self {
            F::FirstName => ("First name", "profile.firstName"),
            F::LastName => ("Last name", "profile.lastName"),
            F::CompanyName => ("Company name", "profile.companyName"),
            F::Website => ("Website", "profile.website"),
            F::ProfessionalBackground => (
                "Professional background",
                "context.user.professionalBackground",
            ),
            F::Overview => ("Overview", "context.company.overview"),
            F::Product => ("Product", "context.company.product"),
            F::ProblemSolved => ("Problem solved", "context.company.problemSolved"),
            F::Differentiators => ("Differentiators", "context.company.differentiators"),
            F::NetworkPresence => ("Network presence", "context.company.networkPresence"),
            F::NetworkVoice => ("Network voice", "context.content.networkVoice"),
            F::PreferredTone => ("Preferred tone", "context.content.preferredTone"),
            F::PostingCadence => ("Posting cadence", "context.content.postingCadence"),
            F::RecommendedTopics => ("Recommended topics", "context.content.recommendedTopics"),
            F::ContentFormats => ("Content formats", "context.content.contentFormats"),
            F::TopicsToAvoid => ("Topics to avoid", "context.content.topicsToAvoid"),
            F::TargetAudience => ("Target audience", "context.market.targetAudience"),
            F::IndustryContext => ("Industry context", "context.market.industryContext"),
            F::IcpJobTitles => ("ICP job titles", "context.market.icpJobTitles"),
            F::IcpIndustries => ("ICP industries", "context.market.icpIndustries"),
            F::IcpCompanySizes => ("ICP company sizes", "context.market.icpCompanySizes"),
            F::IcpPainPoints => ("ICP pain points", "context.market.icpPainPoints"),
            F::IcpKeywords => ("ICP keywords", "context.market.icpKeywords"),
            F::Extra => ("Extra", "context.extra"),
        }
    }

    /// The field a request path names (`context.market.icpKeywords[2]`
    /// names `IcpKeywords`, `context.extra.a.b` names `Extra`), with the
    /// rest of the path after the field.
    pub fn from_path(path: &str) -> Option<(FieldId, &str)> {
        ALL.iter().find_map(|f| {
            let rest = path.strip_prefix(f.path())?;
            (rest.is_empty() || rest.starts_with(['.', '['])).then_some((*f, rest))
        })
    }

    /// The field's value in `p`.
    pub fn get(self, p: &PutContext) -> Val<'_> {
        use FieldId as F;
        let (c, pr) = (&p.context, &p.profile);
        match self {
            F::FirstName => Val::Text(&pr.first_name),
            F::LastName => Val::Text(&pr.last_name),
            F::CompanyName => Val::Text(&pr.company_name),
            F::Website => Val::Text(&pr.website),
            F::ProfessionalBackground => Val::Text(&c.user.professional_background),
            F::Overview => Val::Text(&c.company.overview),
            F::Product => Val::Text(&c.company.product),
            F::ProblemSolved => Val::Text(&c.company.problem_solved),
            F::Differentiators => Val::Text(&c.company.differentiators),
            F::NetworkPresence => Val::Text(&c.company.network_presence),
            F::NetworkVoice => Val::Text(&c.content.network_voice),
            F::PreferredTone => Val::Text(&c.content.preferred_tone),
            F::PostingCadence => Val::Text(&c.content.posting_cadence),
            F::RecommendedTopics => Val::List(&c.content.recommended_topics),
            F::ContentFormats => Val::List(&c.content.content_formats),
            F::TopicsToAvoid => Val::List(&c.content.topics_to_avoid),
            F::TargetAudience => Val::Text(&c.market.target_audience),
            F::IndustryContext => Val::Text(&c.market.industry_context),
            F::IcpJobTitles => Val::List(&c.market.icp_job_titles),
            F::IcpIndustries => Val::List(&c.market.icp_industries),
            F::IcpCompanySizes => Val::List(&c.market.icp_company_sizes),
            F::IcpPainPoints => Val::List(&c.market.icp_pain_points),
            F::IcpKeywords => Val::List(&c.market.icp_keywords),
            F::Extra => Val::Json(&c.extra),
        }
    }

    /// The string slot of a text field.
    pub fn text_mut(self, p: &mut PutContext) -> Option<&mut String> {
        use FieldId as F;
        let (c, pr) = (&mut p.context, &mut p.profile);
        Some(match self {
            F::FirstName => &mut pr.first_name,
            F::LastName => &mut pr.last_name,
            F::CompanyName => &mut pr.company_name,
            F::Website => &mut pr.website,
            F::ProfessionalBackground => &mut c.user.professional_background,
            F::Overview => &mut c.company.overview,
            F::Product => &mut c.company.product,
            F::ProblemSolved => &mut c.company.problem_solved,
            F::Differentiators => &mut c.company.differentiators,
            F::NetworkPresence => &mut c.company.network_presence,
            F::NetworkVoice => &mut c.content.network_voice,
            F::PreferredTone => &mut c.content.preferred_tone,
            F::PostingCadence => &mut c.content.posting_cadence,
            F::TargetAudience => &mut c.market.target_audience,
            F::IndustryContext => &mut c.market.industry_context,
            _ => return None,
        })
    }

    /// The array slot of a list field.
    pub fn list_mut(self, p: &mut PutContext) -> Option<&mut Vec<String>> {
        use FieldId as F;
        let (co, m) = (&mut p.context.content, &mut p.context.market);
        Some(match self {
            F::RecommendedTopics => &mut co.recommended_topics,
            F::ContentFormats => &mut co.content_formats,
            F::TopicsToAvoid => &mut co.topics_to_avoid,
            F::IcpJobTitles => &mut m.icp_job_titles,
            F::IcpIndustries => &mut m.icp_industries,
            F::IcpCompanySizes => &mut m.icp_company_sizes,
            F::IcpPainPoints => &mut m.icp_pain_points,
            F::IcpKeywords => &mut m.icp_keywords,
            _ => return None,
        })
    }

    /// One line of help in the form.
    pub fn help(self) -> &'static str {
        use FieldId as F;
        match self {
            F::Website => "e.g. https://example.com",
            F::ProfessionalBackground => "your role and experience, in a few sentences",
            F::Overview => "what the company does, in a few sentences",
            F::PreferredTone => "e.g. friendly and direct",
            F::PostingCadence => "e.g. twice a week",
            F::IcpCompanySizes => "e.g. 51-200",
            _ => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_has_a_unique_path_and_a_slot() {
        let mut paths: Vec<&str> = ALL.iter().map(|f| f.path()).collect();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), ALL.len(), "paths are unique");
        let mut p = PutContext::default();
        for f in ALL {
            let writable = match f.kind() {
                Kind::Line | Kind::Long => f.text_mut(&mut p).is_some(),
                Kind::List => f.list_mut(&mut p).is_some(),
                Kind::Json => f.get(&p) == Val::Json(&p.context.extra),
            };
            assert!(writable, "{f:?} has a slot of its kind");
        }
        // The sections cover the whole contract: 4 + 1 + 5 + 6 + 7 + 1.
        let count = |s: Section| ALL.iter().filter(|f| f.section() == s).count();
        let counts: Vec<usize> = Section::ALL.into_iter().map(count).collect();
        assert_eq!(counts, [4, 1, 5, 6, 7, 1]);
    }

    #[test]
    fn service_paths_name_their_field() {
        assert_eq!(
            FieldId::from_path("context.market.icpKeywords[2]"),
            Some((FieldId::IcpKeywords, "[2]"))
        );
        assert_eq!(
            FieldId::from_path("context.extra.a.b"),
            Some((FieldId::Extra, ".a.b"))
        );
        assert_eq!(
            FieldId::from_path("profile.website"),
            Some((FieldId::Website, ""))
        );
        assert_eq!(FieldId::from_path("context.company.overviewX"), None);
        assert_eq!(FieldId::from_path("body"), None);
    }
}
