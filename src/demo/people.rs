//! Deterministic people and companies: a Lead Finder result and its
//! enrichment profile are derived from one 64-bit seed on demand, so a search
//! of 100,000 results stores 24 bytes per row and still answers filtered
//! queries quickly (predicates read typed fields without building JSON).

use serde_json::{Map, Value, json};

use super::ids::{mix2, pick, unit, uuid_from};
use crate::api::model::{FieldDescriptor, Operator, ValueType};
use crate::num::{f64_to_u16, f64_to_u32};

const FIRST: &[&str] = &[
    "Amelia", "Ben", "Chloé", "Daniel", "Elif", "Felix", "Grace", "Hugo", "Isabel", "Jonas",
    "Kira", "Lukas", "Maya", "Noah", "Olivia", "Pablo", "Quinn", "Rosa", "Samir", "Tara", "Uma",
    "Victor", "Wen", "Ximena", "Yusuf", "Zoe", "Aiko", "Bruno", "Carmen", "Dmitri", "Esther",
    "Farah", "Gustav", "Hana", "Ivan", "Jada", "Kofi", "Lena", "Mateo", "Nia",
];
const LAST: &[&str] = &[
    "Adler",
    "Brennan",
    "Castillo",
    "Dubois",
    "Eriksen",
    "Fischer",
    "Garcia",
    "Hoffmann",
    "Ivanova",
    "Jensen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Patel",
    "Quispe",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Umarov",
    "Vogel",
    "Weber",
    "Xu",
    "Yilmaz",
    "Zimmermann",
    "Almeida",
    "Bauer",
    "Chen",
    "Dimitrov",
    "Evans",
    "Fernández",
    "Gruber",
    "Haddad",
    "Ito",
    "Keller",
    "Larsen",
    "Meyer",
    "Novak",
    "O'Brien",
];
const CO_A: &[&str] = &[
    "Acme",
    "Brightwave",
    "Cobalt",
    "Driftwood",
    "Emberline",
    "Foxglove",
    "Granite",
    "Helix",
    "Ironbark",
    "Juniper",
    "Kestrel",
    "Lumen",
    "Meridian",
    "Northwind",
    "Orbital",
    "Pinecrest",
    "Quarry",
    "Redwood",
    "Solstice",
    "Tidal",
    "Umbra",
    "Vantage",
    "Willow",
    "Zephyr",
    "Alder",
    "Basalt",
    "Cinder",
    "Delta",
    "Evergreen",
    "Fathom",
];
const CO_B: &[&str] = &[
    " Labs",
    " Systems",
    " Analytics",
    " Cloud",
    " Health",
    " Pay",
    " Logistics",
    " AI",
    " Works",
    " Bio",
    " Robotics",
    " Commerce",
];
const TLD: &[&str] = &["com", "io", "ai", "co", "de"];
const INDUSTRY: &[&str] = &[
    "Software",
    "Fintech",
    "Healthcare",
    "E-commerce",
    "Logistics",
    "Manufacturing",
    "Cybersecurity",
    "Marketing services",
    "Education",
    "Energy",
];
const STAGE: &[&str] = &[
    "Pre-seed",
    "Seed",
    "Series A",
    "Series B",
    "Series C",
    "Series D",
    "Bootstrapped",
];
const CITY: &[(&str, &str)] = &[
    ("Berlin", "DE"),
    ("Munich", "DE"),
    ("Zurich", "CH"),
    ("Vienna", "AT"),
    ("London", "GB"),
    ("Amsterdam", "NL"),
    ("Paris", "FR"),
    ("New York", "US"),
    ("Austin", "US"),
    ("San Francisco", "US"),
    ("Toronto", "CA"),
    ("Stockholm", "SE"),
    ("Dublin", "IE"),
    ("Lisbon", "PT"),
    ("Warsaw", "PL"),
];
const STACK: &[&str] = &[
    "Salesforce, Outreach, Snowflake",
    "HubSpot, Segment, BigQuery",
    "Salesforce, Gong, dbt",
    "Pipedrive, Zapier",
    "Kubernetes, Terraform, Datadog",
    "NetSuite, Stripe, Looker",
    "Shopify, Klaviyo",
    "Dynamics 365, Power BI",
];
const TOPIC: &[&str] = &[
    "pipeline hygiene",
    "forecast accuracy",
    "outbound that doesn't feel like spam",
    "consolidating the GTM stack",
    "usage-based pricing",
    "hiring the first SDRs",
    "platform teams and developer experience",
    "closing the books faster",
    "expansion revenue",
    "the cost of bad CRM data",
];

/// Title pools, one per search persona.
pub(crate) const PERSONAS: &[&[&str]] = &[
    &[
        "VP Revenue Operations",
        "Head of RevOps",
        "Director of Sales Operations",
        "Revenue Operations Manager",
        "Chief Revenue Officer",
        "Sales Ops Lead",
    ],
    &[
        "Head of Growth",
        "VP Growth",
        "Growth Marketing Lead",
        "Director of Demand Generation",
        "CMO",
    ],
    &[
        "Engineering Manager, Platform",
        "Director of Platform Engineering",
        "Head of Infrastructure",
        "Staff SRE",
        "VP Engineering",
    ],
    &[
        "CFO",
        "VP Finance",
        "Head of Finance",
        "Finance Director",
        "Controller",
    ],
    &["Founder & CEO", "Co-founder", "CEO", "Founder", "COO"],
];

/// A typed enrichment value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FVal {
    /// Text.
    Str(String),
    /// A number.
    Num(f64),
    /// A boolean.
    Bool(bool),
}

impl FVal {
    fn to_json(&self) -> Value {
        match self {
            FVal::Str(s) => Value::String(s.clone()),
            FVal::Num(n) => json!(n),
            FVal::Bool(b) => Value::Bool(*b),
        }
    }
}

/// One enrichment field: where it lives and what it holds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FieldSpec {
    /// Dotted path, e.g. `person.contact.email`.
    pub path: &'static str,
    /// Label for the UI.
    pub label: &'static str,
    /// Value type.
    pub kind: Kind,
}

/// The value type of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Text.
    Str,
    /// Number.
    Num,
    /// Boolean.
    Bool,
}

impl Kind {
    /// The operators the results query accepts on this type.
    pub(crate) fn operators(self) -> &'static [Operator] {
        match self {
            Kind::Str => &[Operator::Contains, Operator::Eq],
            Kind::Num => &[
                Operator::Eq,
                Operator::Gt,
                Operator::Gte,
                Operator::Lt,
                Operator::Lte,
            ],
            Kind::Bool => &[Operator::Eq],
        }
    }

    fn value_type(self) -> ValueType {
        match self {
            Kind::Str => ValueType::String,
            Kind::Num => ValueType::Number,
            Kind::Bool => ValueType::Boolean,
        }
    }
}

macro_rules! f {
    ($p:literal, $l:literal, $k:ident) => {
        FieldSpec {
            path: $p,
            label: $l,
            kind: Kind::$k,
        }
    };
}

/// Every enrichment field, in display order (person then company).
pub(crate) const FIELDS: &[FieldSpec] = &[
    f!("person.identity.fullName", "Full name", Str),
    f!("person.identity.headline", "Headline", Str),
    f!("person.contact.email", "Work email", Str),
    f!("person.contact.emailVerified", "Email verified", Bool),
    f!("person.contact.phone", "Phone", Str),
    f!("person.career.title", "Current title", Str),
    f!("person.career.seniority", "Seniority", Str),
    f!("person.career.yearsExperience", "Years of experience", Num),
    f!("person.career.openToWork", "Open to work", Bool),
    f!("person.location.city", "City", Str),
    f!("person.location.country", "Country", Str),
    f!("person.social.connections", "Connections", Num),
    f!("person.social.followers", "Followers", Num),
    f!("company.firmographics.name", "Company", Str),
    f!("company.firmographics.domain", "Company domain", Str),
    f!("company.firmographics.industry", "Industry", Str),
    f!("company.firmographics.headcount", "Headcount", Num),
    f!("company.firmographics.foundedYear", "Founded", Num),
    f!("company.firmographics.isPublic", "Publicly traded", Bool),
    f!("company.financials.revenueMusd", "Revenue (M USD)", Num),
    f!("company.financials.fundingStage", "Funding stage", Str),
    f!(
        "company.financials.totalFundingMusd",
        "Total funding (M USD)",
        Num
    ),
    f!("company.signals.hiring", "Hiring", Bool),
    f!("company.signals.openRoles", "Open roles", Num),
    f!("company.signals.techStack", "Tech stack", Str),
];

/// The index of a field by path.
pub fn field_index(path: &str) -> Option<usize> {
    FIELDS.iter().position(|f| f.path == path)
}

/// The descriptors of every field, with coverage counts.
pub(crate) fn descriptors(coverage: &[u64]) -> Vec<FieldDescriptor> {
    FIELDS
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut parts = f.path.split('.');
            let namespace = parts.next().unwrap_or_default().to_owned();
            let group = parts.next().unwrap_or_default().to_owned();
            FieldDescriptor {
                path: f.path.to_owned(),
                label: f.label.to_owned(),
                namespace,
                group,
                value_type: f.kind.value_type(),
                operators: f.kind.operators().to_vec(),
                coverage_count: coverage.get(i).copied().unwrap_or(0),
            }
        })
        .collect()
}

/// A person derived from a seed, with their company.
#[derive(Debug, Clone)]
pub(crate) struct Person {
    /// The seed everything derives from.
    pub seed: u64,
    /// First name.
    pub first: &'static str,
    /// Last name.
    pub last: &'static str,
    /// Current title.
    pub title: &'static str,
    co_a: &'static str,
    co_b: &'static str,
    tld: &'static str,
    city: (&'static str, &'static str),
    years: u32,
    connections: u32,
    followers: Option<u32>,
    open_to_work: bool,
    email_verified: bool,
    phone: Option<u32>,
    industry: &'static str,
    headcount: u32,
    founded: u32,
    public: bool,
    revenue: f64,
    stage: &'static str,
    funding: Option<f64>,
    hiring: bool,
    open_roles: Option<u32>,
    stack: &'static str,
    topic: &'static str,
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Person {
    /// The person of `seed`, with a title from `persona`'s pool.
    pub(crate) fn new(seed: u64, persona: usize) -> Person {
        let r = |k: u64| mix2(seed, k);
        let u = |k: u64| unit(mix2(seed, k));
        let titles = PERSONAS[persona % PERSONAS.len()];
        let headcount = f64_to_u32(10.0 * (1.0 + u(10) * 499.0).powf(1.15));
        let public = headcount > 2_000 && u(11) < 0.4;
        let hiring = u(12) < 0.55;
        Person {
            seed,
            first: pick(r(1), FIRST),
            last: pick(r(2), LAST),
            title: pick(r(3), titles),
            co_a: pick(r(4), CO_A),
            co_b: pick(r(5), CO_B),
            tld: pick(r(6), TLD),
            city: pick(r(7), CITY),
            years: 3 + f64_to_u32(u(8) * 22.0),
            connections: 150 + f64_to_u32(u(9) * 4_850.0),
            followers: (u(13) < 0.8).then(|| 100 + f64_to_u32(u(14) * 19_900.0)),
            open_to_work: u(15) < 0.12,
            email_verified: u(16) < 0.7,
            phone: (u(17) < 0.45).then(|| 1_000_000 + f64_to_u32(u(18) * 8_999_999.0)),
            industry: pick(r(19), INDUSTRY),
            headcount,
            founded: 1985 + f64_to_u32(u(20) * 38.0),
            public,
            revenue: round1(f64::from(headcount) * (0.08 + u(21) * 0.3)),
            stage: if public { "Public" } else { pick(r(22), STAGE) },
            funding: (!public).then(|| round1(u(23) * 180.0)),
            hiring,
            open_roles: hiring.then(|| 1 + f64_to_u32(u(24) * 40.0)),
            stack: pick(r(25), STACK),
            topic: pick(r(26), TOPIC),
        }
    }

    /// `First Last`.
    pub(crate) fn name(&self) -> String {
        format!("{} {}", self.first, self.last)
    }

    /// Company name.
    pub(crate) fn company(&self) -> String {
        format!("{}{}", self.co_a, self.co_b)
    }

    /// Company domain.
    pub(crate) fn domain(&self) -> String {
        let mut out = String::new();
        self.write_domain(&mut out);
        out
    }

    fn write_domain(&self, out: &mut String) {
        out.extend(
            self.co_a
                .chars()
                .chain(self.co_b.chars())
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_lowercase()),
        );
        out.push('.');
        out.push_str(self.tld);
    }

    fn ascii(s: &str) -> String {
        let mut out = String::new();
        Self::write_ascii(s, &mut out);
        out
    }

    fn write_ascii(s: &str, out: &mut String) {
        out.extend(
            s.chars()
                .map(|c| match c {
                    'é' => 'e',
                    'á' => 'a',
                    c => c,
                })
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_lowercase()),
        );
    }

    /// Work email.
    pub(crate) fn email(&self) -> String {
        let mut out = String::new();
        self.write_email(&mut out);
        out
    }

    fn write_email(&self, out: &mut String) {
        Self::write_ascii(self.first, out);
        out.push('.');
        Self::write_ascii(self.last, out);
        out.push('@');
        self.write_domain(out);
    }

    /// Appends the text a results query `q` searches, one field a line:
    /// name, title, company, content, signal reason, domain, email. It
    /// allocates nothing beyond `out`, so a scan of many rows stays cheap.
    pub(crate) fn write_text(&self, out: &mut String) {
        for part in [self.first, " ", self.last, "\n", self.title, "\n"] {
            out.push_str(part);
        }
        out.push_str(self.co_a);
        out.push_str(self.co_b);
        out.push('\n');
        self.write_content(out);
        out.push('\n');
        out.push_str(self.signal_reason_str());
        out.push('\n');
        self.write_domain(out);
        out.push('\n');
        self.write_email(out);
    }

    /// Profile URL on the professional network.
    pub(crate) fn network_url(&self) -> String {
        format!(
            "https://network.example/in/{}-{}-{:04x}",
            Self::ascii(self.first),
            Self::ascii(self.last),
            self.seed & 0xffff
        )
    }

    fn seniority(&self) -> &'static str {
        let t = self.title;
        if ["Chief", "CFO", "CMO", "CEO", "COO", "Founder", "founder"]
            .iter()
            .any(|k| t.contains(k))
        {
            "c-level"
        } else if t.starts_with("VP") {
            "vp"
        } else if t.contains("Head") || t.contains("Director") {
            "director"
        } else if t.contains("Manager") || t.contains("Lead") || t.contains("Controller") {
            "manager"
        } else {
            "senior ic"
        }
    }

    /// Headline on the network.
    pub(crate) fn headline(&self) -> String {
        format!("{} at {} · {}", self.title, self.company(), self.topic)
    }

    /// The value of field number `i` of [`FIELDS`], `None` when absent.
    pub(crate) fn field(&self, i: usize) -> Option<FVal> {
        use FVal::*;
        Some(match i {
            0 => Str(self.name()),
            1 => Str(self.headline()),
            2 => Str(self.email()),
            3 => Bool(self.email_verified),
            4 => Str(format!("+49 30 {}", self.phone?)),
            5 => Str(self.title.to_owned()),
            6 => Str(self.seniority().to_owned()),
            7 => Num(f64::from(self.years)),
            8 => Bool(self.open_to_work),
            9 => Str(self.city.0.to_owned()),
            10 => Str(self.city.1.to_owned()),
            11 => Num(f64::from(self.connections)),
            12 => Num(f64::from(self.followers?)),
            13 => Str(self.company()),
            14 => Str(self.domain()),
            15 => Str(self.industry.to_owned()),
            16 => Num(f64::from(self.headcount)),
            17 => Num(f64::from(self.founded)),
            18 => Bool(self.public),
            19 => Num(self.revenue),
            20 => Str(self.stage.to_owned()),
            21 => Num(self.funding?),
            22 => Bool(self.hiring),
            23 => Num(f64::from(self.open_roles?)),
            24 => Str(self.stack.to_owned()),
            _ => return None,
        })
    }

    /// Whether field `i` is present (no allocation).
    pub(crate) fn has_field(&self, i: usize) -> bool {
        match i {
            4 => self.phone.is_some(),
            12 => self.followers.is_some(),
            21 => self.funding.is_some(),
            23 => self.open_roles.is_some(),
            i => i < FIELDS.len(),
        }
    }

    /// How many fields are present.
    pub(crate) fn field_count(&self) -> u64 {
        (0..FIELDS.len()).filter(|i| self.has_field(*i)).count() as u64
    }

    /// `(person, company)` objects of the enrichment profile, nested by
    /// group: `{"contact": {"email": ...}, ...}`.
    pub(crate) fn profile(&self) -> (Value, Value) {
        let mut person = Map::new();
        let mut company = Map::new();
        for (i, spec) in FIELDS.iter().enumerate() {
            let Some(v) = self.field(i) else { continue };
            let mut parts = spec.path.split('.');
            let (Some(ns), Some(group), Some(key)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let target = if ns == "person" {
                &mut person
            } else {
                &mut company
            };
            if let Value::Object(g) = target
                .entry(group.to_owned())
                .or_insert_with(|| Value::Object(Map::new()))
            {
                g.insert(key.to_owned(), v.to_json());
            }
        }
        (Value::Object(person), Value::Object(company))
    }

    /// The observed signal, for `content`.
    pub(crate) fn content(&self) -> String {
        let mut out = String::new();
        self.write_content(&mut out);
        out
    }

    fn write_content(&self, out: &mut String) {
        use std::fmt::Write;
        let (first, topic, title) = (self.first, self.topic, self.title);
        let company = format_args!("{}{}", self.co_a, self.co_b);
        let _ = match self.seed % 4 {
            0 => write!(out, "{first} posted about {topic}."),
            1 => match self.open_roles {
                Some(n) => write!(out, "{company} is hiring for {n} open roles."),
                None => write!(out, "{first} commented on a thread about {topic}."),
            },
            2 => write!(out, "Started as {title} at {company} recently."),
            _ => write!(
                out,
                "{company} raised a {} round; {first} leads the push on {topic}.",
                self.stage
            ),
        };
    }

    /// Why this signal matters, for `signalReason`.
    pub(crate) fn signal_reason(&self) -> String {
        self.signal_reason_str().to_owned()
    }

    fn signal_reason_str(&self) -> &'static str {
        match self.seed % 4 {
            0 => "Posted about a relevant topic",
            1 if self.hiring => "Company is hiring",
            1 => "Engaged with a relevant topic",
            2 => "Recently changed roles",
            _ => "Company raised funding",
        }
    }

    /// The quality score in `0.40..0.99`.
    #[cfg(test)]
    pub(crate) fn score(seed: u64) -> f64 {
        f64::from(Self::score_milli(seed)) / 1000.0
    }

    /// The quality score in thousandths (`400..=990`): exactly
    /// `score × 1000`, small enough to keep in every stored row.
    pub(crate) fn score_milli(seed: u64) -> u16 {
        f64_to_u16((400.0 + unit(mix2(seed, 99)) * 590.0).round())
    }

    /// The canonical lead id of this person.
    pub(crate) fn lead_id(&self) -> String {
        uuid_from(mix2(self.seed, 0x1ead))
    }
}

/// The quality tier of a score.
pub(crate) fn tier(score: f64) -> &'static str {
    if score >= 0.85 {
        "excellent"
    } else if score >= 0.7 {
        "good"
    } else {
        "fair"
    }
}

/// A predicate over an enrichment field with its value checked.
#[derive(Debug, Clone)]
pub(crate) struct Pred {
    /// Field index in [`FIELDS`].
    pub field: usize,
    /// Operator.
    pub op: Operator,
    /// The value compared against.
    pub value: FVal,
}

impl Pred {
    /// Whether `p` passes (an absent field never passes).
    pub(crate) fn matches(&self, p: &Person) -> bool {
        let Some(v) = p.field(self.field) else {
            return false;
        };
        match (&v, &self.value) {
            (FVal::Str(a), FVal::Str(b)) => {
                let (a, b) = (a.to_lowercase(), b.to_lowercase());
                match self.op {
                    Operator::Contains => a.contains(&b),
                    Operator::Eq => a == b,
                    _ => false,
                }
            }
            (FVal::Num(a), FVal::Num(b)) => match self.op {
                Operator::Eq => (a - b).abs() < 1e-9,
                Operator::Gt => a > b,
                Operator::Gte => a >= b,
                Operator::Lt => a < b,
                Operator::Lte => a <= b,
                _ => false,
            },
            (FVal::Bool(a), FVal::Bool(b)) => self.op == Operator::Eq && a == b,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people_are_deterministic_and_complete() {
        let a = Person::new(42, 0);
        let b = Person::new(42, 0);
        assert_eq!(a.email(), b.email());
        assert!(a.email().contains('@'));
        let (person, company) = a.profile();
        assert!(person["identity"]["fullName"].is_string());
        assert!(company["firmographics"]["headcount"].is_number());
        assert!(a.field_count() >= 21);
        for i in 0..FIELDS.len() {
            assert_eq!(a.has_field(i), a.field(i).is_some(), "field {i}");
        }
    }

    #[test]
    fn the_search_text_is_the_rendered_fields() {
        for seed in 0..400u64 {
            let p = Person::new(seed, usize::try_from(seed).unwrap());
            let company = format!("{}{}", p.co_a, p.co_b);
            // The formulas the text fields had before they were written in
            // place.
            let slug: String = company
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_lowercase();
            let domain = format!("{slug}.{}", p.tld);
            let email = format!(
                "{}.{}@{domain}",
                Person::ascii(p.first),
                Person::ascii(p.last)
            );
            let content = match seed % 4 {
                0 => format!("{} posted about {}.", p.first, p.topic),
                1 => match p.open_roles {
                    Some(n) => format!("{company} is hiring for {n} open roles."),
                    None => format!("{} commented on a thread about {}.", p.first, p.topic),
                },
                2 => format!("Started as {} at {company} recently.", p.title),
                _ => format!(
                    "{company} raised a {} round; {} leads the push on {}.",
                    p.stage, p.first, p.topic
                ),
            };
            assert_eq!(
                (p.domain(), p.email(), p.content()),
                (domain, email, content)
            );
            let mut text = String::new();
            p.write_text(&mut text);
            let want = [
                p.name(),
                p.title.to_owned(),
                p.company(),
                p.content(),
                p.signal_reason(),
                p.domain(),
                p.email(),
            ]
            .join("\n");
            assert_eq!(text, want);
            let score = (400.0 + unit(mix2(seed, 99)) * 590.0).round() / 1000.0;
            assert_eq!(Person::score(seed), score);
        }
    }

    #[test]
    fn table_text_has_no_non_ascii_capitals() {
        // The results scan lowers people text with ASCII rules only.
        let tables: &[&[&str]] = &[FIRST, LAST, CO_A, CO_B, TLD, INDUSTRY, STAGE, STACK, TOPIC];
        let titles = PERSONAS.iter().copied();
        for t in tables.iter().copied().chain(titles).flatten() {
            assert_eq!(t.to_lowercase(), t.to_ascii_lowercase(), "{t}");
        }
        for (a, b) in CITY {
            assert_eq!(a.to_lowercase(), a.to_ascii_lowercase(), "{a}");
            assert_eq!(b.to_lowercase(), b.to_ascii_lowercase(), "{b}");
        }
    }

    #[test]
    fn predicates_compare_typed_values() {
        let p = Person::new(7, 1);
        let Some(FVal::Num(head)) = p.field(16) else {
            panic!("field 16 (headcount) is a number");
        };
        let pred = |op, value| Pred {
            field: 16,
            op,
            value,
        };
        assert!(pred(Operator::Gte, FVal::Num(head)).matches(&p));
        assert!(!pred(Operator::Gt, FVal::Num(head)).matches(&p));
        assert!(pred(Operator::Eq, FVal::Num(head)).matches(&p));
        assert!(!pred(Operator::Eq, FVal::Str("x".into())).matches(&p));
    }
}
