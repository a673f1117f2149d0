//! The service's advice in full for a Lead Finder error, as the dashboard
//! says it (the CLI prints the same parts after the error): the details
//! (`error`, `sourceId`), what to try instead (`alternatives`), what to do
//! (`action`: its label and where it leads), whether sending again may
//! work (`retryable`) and whether the service flags it (`alert`). Every
//! piece of service text is made inert on its own.

use crate::api::ApiError;
use crate::text::sanitize::DisplayText;

fn inline(s: &str) -> String {
    DisplayText::inline(s.trim()).into_string()
}

/// The advice of a Lead Finder error body, one sentence each; empty for
/// any other error.
pub(crate) fn lines(e: &ApiError) -> Vec<String> {
    let Some(lf) = e.lead_finder() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut details = Vec::new();
    if !lf.error.trim().is_empty() && lf.error.trim() != lf.code.trim() {
        details.push(format!("error {}", inline(&lf.error)));
    }
    if !lf.source_id.trim().is_empty() {
        details.push(format!("source {}", inline(&lf.source_id)));
    }
    if !details.is_empty() {
        out.push(format!("Details: {}.", details.join(", ")));
    }
    let alternatives: Vec<String> = lf
        .alternatives
        .iter()
        .filter(|a| !a.trim().is_empty())
        .map(|a| inline(a))
        .collect();
    if !alternatives.is_empty() {
        out.push(format!("Try instead: {}.", alternatives.join(", ")));
    }
    if let Some(action) = lf.action.as_ref().filter(|a| !a.label.trim().is_empty()) {
        let mut said = format!("Action: {}", inline(&action.label));
        if !action.href.trim().is_empty() {
            said.push_str(&format!(" ({})", inline(&action.href)));
        }
        said.push('.');
        out.push(said);
    }
    out.push(
        if lf.retryable {
            "Retryable: it may work if sent again later."
        } else {
            "Not retryable: sending it again as it is will not help."
        }
        .to_owned(),
    );
    if lf.alert {
        out.push("The service flags it as an alert.".to_owned());
    }
    out
}

/// The advice as one text (empty when there is none).
pub(crate) fn text(e: &ApiError) -> String {
    lines(e).join(" ")
}

/// The code and status a refusal came with, and its message:
/// `conflict (409): A run of this search is already queued or running`.
pub(crate) fn head(e: &ApiError) -> String {
    let message = inline(e.message().trim_end_matches('.'));
    match e.status() {
        Some(status) => format!("{} ({status}): {message}", inline(e.code())),
        None => format!("{}: {message}", inline(e.code())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fixtures::drive::service_error;

    #[test]
    fn every_part_of_a_lead_finder_error_is_said() {
        let e = service_error(
            409,
            r#"{"error":"run_in_progress","message":"A run is already going.","sourceId":"network_people","code":"conflict","alternatives":["wait","run again with continuation=true"],"retryable":true,"alert":true,"action":{"type":"navigate","label":"View the running search","href":"/lead-finder/s-1"}}"#,
        );
        assert_eq!(
            lines(&e),
            [
                "Details: error run_in_progress, source network_people.",
                "Try instead: wait, run again with continuation=true.",
                "Action: View the running search (/lead-finder/s-1).",
                "Retryable: it may work if sent again later.",
                "The service flags it as an alert.",
            ]
        );
        assert_eq!(head(&e), "conflict (409): A run is already going");
        let plain = service_error(
            422,
            r#"{"error":"bad","message":"No","code":"bad","retryable":false}"#,
        );
        assert_eq!(
            lines(&plain),
            ["Not retryable: sending it again as it is will not help."]
        );
        let other = service_error(409, r#"{"error":{"code":"conflict","message":"x"}}"#);
        assert!(lines(&other).is_empty(), "not a Lead Finder body");
    }

    #[test]
    fn service_text_is_made_inert() {
        let e = service_error(
            422,
            r#"{"error":"x","message":"m","code":"c","alternatives":["\u001b[31mred"],"action":{"label":"Go\u0007","href":"/x"}}"#,
        );
        let said = text(&e);
        assert!(
            !said.contains('\u{1b}') && !said.contains('\u{7}'),
            "{said:?}"
        );
    }
}
