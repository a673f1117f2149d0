//! Domain logic below both front ends: rules the dashboard (`app`) and the
//! scripting commands (`script`) share, and, where the rule is the
//! service's own, the demo service too. Pure: no tokio, no clock, no files;
//! imports neither `app`, `ui`, `runtime` nor `script`. ("Domain" in the
//! sense of the problem's domain; the sending domains are `app::domains`.)

pub mod import;
pub mod lead_field;
pub mod template;
pub mod write;
