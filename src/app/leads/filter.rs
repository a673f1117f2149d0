//! The filter builder: free text `q` plus up to five predicates whose path
//! is picked from the field descriptors the service returned (never typed),
//! whose operator comes from that descriptor, and whose value is typed per
//! its `valueType`. Applying runs the results query.

use super::LeadsModel;
use crate::app::ctx::Ctx;
use crate::app::requests::Requests;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui_textarea::TextArea;

use super::super::dialog::Outcome;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd};
use super::{Dialog, Filter, Purpose, fixed_keys, in_flight, search, send};
use crate::api::ApiError;
use crate::api::model::{
    EnrichmentResponse, FieldDescriptor, Operator, Predicate, PredicateValue, ValueType,
};
use crate::api::validate;
use crate::app::keymap::Action;
use crate::app::picker::PickerKey;

/// Predicates allowed by the contract.
pub(crate) const MAX_PREDICATES: usize = 5;
/// Longest `q`.
pub(crate) const MAX_Q: usize = 128;
/// Longest string value.
pub(crate) const MAX_VALUE: usize = 512;
/// How soon text typed in the builder filters the results (live).
pub(crate) const LIVE_AFTER: Duration = Duration::from_millis(300);
/// What picking a field says when there are none to pick from.
const NO_FIELDS: &str = "no fields to pick from: this search has no enriched result yet";

/// Part of a predicate row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The field (a picker).
    Path,
    /// The operator.
    Op,
    /// The value.
    Value,
}

/// Where the focus is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// The free-text box.
    Q,
    /// A part of predicate row `i`.
    Row(usize, Part),
}

/// One predicate being built.
#[derive(Debug, Clone)]
pub struct Row {
    /// The picked field's path.
    pub path: Option<String>,
    /// Its label (kept in case the descriptors change).
    pub label: String,
    /// Its value type.
    pub value_type: ValueType,
    /// Operators it allows.
    pub ops: Vec<Operator>,
    /// Index into `ops`.
    pub op: usize,
    /// String or number value.
    pub value: TextArea<'static>,
    /// Boolean value.
    pub on: bool,
    /// Validation message.
    pub error: Option<String>,
}

impl Default for Row {
    fn default() -> Self {
        Row {
            path: None,
            label: String::new(),
            value_type: ValueType::String,
            ops: Vec::new(),
            op: 0,
            value: text_box(""),
            on: true,
            error: None,
        }
    }
}

impl Row {
    /// The predicate the row stands for (`None`: an empty row, left out),
    /// or what is wrong with it.
    fn predicate(&self) -> Result<Option<Predicate>, String> {
        let text = self.value_text().trim().to_owned();
        let Some(path) = self.path.clone() else {
            if text.is_empty() {
                return Ok(None);
            }
            return Err(format!(
                "pick a field ({} on the field)",
                fixed_keys::CONFIRM.label
            ));
        };
        let Some(operator) = self.operator().cloned() else {
            return Err("this field allows no operator".into());
        };
        let value = match self.value_type {
            ValueType::Boolean => PredicateValue::Bool(self.on),
            ValueType::Number => match text.parse::<f64>() {
                Ok(n) if n.is_finite() => PredicateValue::Number(n),
                _ => return Err("a number, e.g. 50 or 2.5".into()),
            },
            _ if text.is_empty() => return Err("type a value".into()),
            _ if text.chars().count() > MAX_VALUE => {
                return Err(format!("at most {MAX_VALUE} chars"));
            }
            _ => PredicateValue::Text(text),
        };
        Ok(Some(Predicate {
            path,
            operator,
            value,
        }))
    }

    /// The chosen operator.
    pub fn operator(&self) -> Option<&Operator> {
        self.ops.get(self.op)
    }

    /// The typed value text.
    pub fn value_text(&self) -> String {
        self.value.lines().join(" ")
    }

    fn set_field(&mut self, d: &FieldDescriptor) {
        let keep_op = self.operator().cloned();
        self.path = Some(d.path.clone());
        self.label = d.label.clone();
        self.value_type = d.value_type.clone();
        self.ops = operators(d);
        self.op = keep_op
            .and_then(|o| self.ops.iter().position(|x| *x == o))
            .unwrap_or(0);
        self.error = None;
    }
}

/// The open path picker (the shared [`crate::app::picker`]), for the
/// predicate row `of`.
pub(crate) type Picker = crate::app::picker::Picker<usize>;

/// Indices of the descriptors matching what is typed in `p`: its label,
/// path, group or namespace.
pub(crate) fn matches(p: &Picker, descriptors: &[FieldDescriptor]) -> Vec<usize> {
    p.matches(descriptors, |d| {
        vec![
            d.label.as_str(),
            d.path.as_str(),
            d.group.as_str(),
            d.namespace.as_str(),
        ]
    })
}

/// The filter builder dialog.
#[derive(Debug, Clone)]
pub struct Builder {
    /// The search it filters.
    pub search: String,
    /// Free text.
    pub q: TextArea<'static>,
    /// Predicate rows.
    pub rows: Vec<Row>,
    /// Focus.
    pub focus: Focus,
    /// The path picker, when open.
    pub picker: Option<Picker>,
    /// Descriptors to pick from.
    pub descriptors: Vec<FieldDescriptor>,
    /// A message for the whole filter (or `q`).
    pub error: Option<String>,
    /// A hint for the user (not an error).
    pub note: Option<String>,
    /// The filter it was opened on (to tell whether anything was edited);
    /// its text follows what was applied live.
    pub base: Filter,
    /// The text changed since it was last applied: it is applied live,
    /// with the predicates already applied (the rows apply with Enter).
    pub live: bool,
}

fn text_box(text: &str) -> TextArea<'static> {
    let mut t = TextArea::new(vec![text.to_owned()]);
    t.move_cursor(ratatui_textarea::CursorMove::End);
    t
}

/// Operators a descriptor allows (by value type when it lists none).
pub(crate) fn operators(d: &FieldDescriptor) -> Vec<Operator> {
    let known: Vec<Operator> = d
        .operators
        .iter()
        .filter(|o| o.is_known())
        .cloned()
        .collect();
    if !known.is_empty() {
        return known;
    }
    match d.value_type {
        ValueType::Number => vec![
            Operator::Eq,
            Operator::Gt,
            Operator::Gte,
            Operator::Lt,
            Operator::Lte,
        ],
        ValueType::Boolean => vec![Operator::Eq],
        _ => vec![Operator::Contains, Operator::Eq],
    }
}

impl Builder {
    /// A builder over the current filter.
    pub fn new(search: &str, filter: &Filter, descriptors: &[FieldDescriptor]) -> Builder {
        let rows = filter
            .predicates
            .iter()
            .map(|p| {
                let mut row = Row::default();
                match descriptors.iter().find(|d| d.path == p.path) {
                    Some(d) => row.set_field(d),
                    None => {
                        row.path = Some(p.path.clone());
                        row.label = p.path.clone();
                        row.value_type = match p.value {
                            PredicateValue::Bool(_) => ValueType::Boolean,
                            PredicateValue::Number(_) => ValueType::Number,
                            PredicateValue::Text(_) => ValueType::String,
                        };
                        row.ops = vec![p.operator.clone()];
                    }
                }
                row.op = row.ops.iter().position(|o| *o == p.operator).unwrap_or(0);
                match &p.value {
                    PredicateValue::Bool(b) => row.on = *b,
                    PredicateValue::Number(n) => row.value = text_box(&n.to_string()),
                    PredicateValue::Text(s) => row.value = text_box(s),
                }
                row
            })
            .collect();
        Builder {
            search: search.to_owned(),
            q: text_box(&filter.q),
            rows,
            focus: Focus::Q,
            picker: None,
            descriptors: descriptors.to_vec(),
            error: None,
            note: None,
            base: filter.clone(),
            live: false,
        }
    }

    /// What was typed and chosen, comparable: text, and per row the
    /// field, the operator and the value as shown.
    fn contents(&self) -> (String, Vec<(Option<String>, String, String)>) {
        let rows = self
            .rows
            .iter()
            .map(|r| {
                let value = match r.value_type {
                    ValueType::Boolean => r.on.to_string(),
                    _ => r.value_text().trim().to_owned(),
                };
                let op = r.operator().map_or("", |o| o.as_str()).to_owned();
                (r.path.clone(), op, value)
            })
            .collect();
        (self.q.lines().join(" ").trim().to_owned(), rows)
    }

    /// Whether anything differs from the filter it was opened on.
    pub fn edited(&self) -> bool {
        let fresh = Builder::new(&self.search, &self.base, &self.descriptors);
        self.contents() != fresh.contents()
    }

    /// The focus stops in order.
    fn stops(&self) -> Vec<Focus> {
        let mut v = vec![Focus::Q];
        for i in 0..self.rows.len() {
            v.extend([
                Focus::Row(i, Part::Path),
                Focus::Row(i, Part::Op),
                Focus::Row(i, Part::Value),
            ]);
        }
        v
    }

    fn step(&mut self, forward: bool) {
        let stops = self.stops();
        let i = stops.iter().position(|f| *f == self.focus).unwrap_or(0);
        let n = stops.len();
        self.focus = stops[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }];
    }

    fn vertical(&mut self, down: bool) {
        self.focus = match self.focus {
            Focus::Q if down && !self.rows.is_empty() => Focus::Row(0, Part::Path),
            Focus::Q => Focus::Q,
            Focus::Row(0, _) if !down => Focus::Q,
            Focus::Row(i, p) if down => {
                Focus::Row((i + 1).min(self.rows.len().saturating_sub(1)), p)
            }
            Focus::Row(i, p) => Focus::Row(i - 1, p),
        };
    }

    /// Adds an empty predicate row and opens its picker.
    pub fn add_row(&mut self) -> bool {
        if self.rows.len() >= MAX_PREDICATES {
            self.error = Some(format!("at most {MAX_PREDICATES} predicates"));
            return false;
        }
        self.rows.push(Row::default());
        let i = self.rows.len() - 1;
        self.focus = Focus::Row(i, Part::Path);
        self.open_picker(i);
        true
    }

    fn remove_row(&mut self, i: usize) {
        if i < self.rows.len() {
            self.rows.remove(i);
        }
        self.focus = match self.rows.len() {
            0 => Focus::Q,
            n => Focus::Row(i.min(n - 1), Part::Path),
        };
    }

    fn open_picker(&mut self, row: usize) {
        if self.descriptors.is_empty() {
            // While the fields are on their way the builder says so in
            // place of this (see [`fields_loading`]).
            self.error = Some(NO_FIELDS.into());
            return;
        }
        let at = self
            .rows
            .get(row)
            .and_then(|r| r.path.as_ref())
            .and_then(|path| self.descriptors.iter().position(|d| &d.path == path));
        self.picker = Some(Picker::new(row, self.descriptors.len(), at));
    }

    fn cycle_field(&mut self, row: usize, forward: bool) {
        let n = self.descriptors.len();
        if n == 0 {
            return;
        }
        let Some(r) = self.rows.get_mut(row) else {
            return;
        };
        let cur = r
            .path
            .as_ref()
            .and_then(|p| self.descriptors.iter().position(|d| &d.path == p));
        let next = match cur {
            None => 0,
            Some(i) if forward => (i + 1) % n,
            Some(i) => (i + n - 1) % n,
        };
        r.set_field(&self.descriptors[next]);
    }

    /// Pasted text goes to the focused box.
    pub fn paste(&mut self, text: &str) {
        let text = text.replace(['\n', '\r'], " ");
        if let Some(p) = self.picker.as_mut() {
            p.query.insert_str(text);
            return;
        }
        match self.focus {
            Focus::Q => {
                self.live |= self.q.insert_str(text);
            }
            Focus::Row(i, Part::Value) => {
                if let Some(r) = self.rows.get_mut(i)
                    && r.value_type != ValueType::Boolean
                {
                    r.value.insert_str(text);
                    r.error = None;
                }
            }
            _ => {}
        }
    }

    /// Builds the filter, or marks the rows that are wrong.
    pub fn build(&mut self) -> Option<Filter> {
        self.error = None;
        let q = self.q.lines().join(" ").trim().to_owned();
        let mut ok = true;
        if q.chars().count() > MAX_Q {
            self.error = Some(format!("text: at most {MAX_Q} chars"));
            ok = false;
        }
        let mut predicates = Vec::new();
        let mut row_of = Vec::new();
        for (i, r) in self.rows.iter_mut().enumerate() {
            r.error = None;
            match r.predicate() {
                Ok(Some(p)) => {
                    predicates.push(p);
                    row_of.push(i);
                }
                Ok(None) => {}
                Err(e) => {
                    r.error = Some(e);
                    ok = false;
                }
            }
        }
        let filter = Filter { q, predicates };
        if let Err(errors) = validate::results_query(&filter.query(None, 100)) {
            for e in errors {
                let idx = e
                    .path
                    .strip_prefix("predicates[")
                    .and_then(|rest| rest.split(']').next())
                    .and_then(|n| n.parse::<usize>().ok());
                match idx
                    .and_then(|i| row_of.get(i))
                    .and_then(|r| self.rows.get_mut(*r))
                {
                    Some(row) => row.error = Some(e.message.clone()),
                    None => self.error = Some(e.to_string()),
                }
            }
            ok = false;
        }
        if !ok {
            if let Some(i) = self.rows.iter().position(|r| r.error.is_some()) {
                self.focus = Focus::Row(i, Part::Value);
            }
            return None;
        }
        Some(filter)
    }
}

/// Opens the builder on the open search; asks for field descriptors when
/// none are cached (from the enrichment of the first loaded result).
pub(crate) fn open(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = leads.open.as_ref() else {
        return Vec::new();
    };
    let search = o.search.search_id.clone();
    let first = o.window.loaded_iter().next().map(|r| r.result_id.clone());
    let filter = o.filter.clone();
    let mut b = match leads.filter_edits.remove(&search) {
        // Edits left with Esc come back as they were.
        Some(mut kept) => {
            kept.picker = None;
            let enter = fixed_keys::CONFIRM.label;
            kept.note = Some(if kept.base == filter {
                format!("your edits, not applied yet: {enter} applies them")
            } else {
                format!(
                    "your earlier edits; the filter shown has changed since: {enter} applies these"
                )
            });
            if kept.descriptors.is_empty() {
                kept.descriptors = leads.open_descriptors().to_vec();
            }
            kept
        }
        None => Box::new(Builder::new(&search, &filter, leads.open_descriptors())),
    };
    if b.descriptors.is_empty() && !fields_loading(cx.requests, &search) {
        match first {
            Some(result_id) => {
                send(
                    cx,
                    Purpose::Descriptors(search.clone()),
                    ApiRequest::Enrichment {
                        id: search,
                        result_id,
                    },
                );
            }
            None => {
                b.error = Some(
                    "no results yet: the fields come from a result's enrichment; text search works"
                        .into(),
                );
            }
        }
    }
    super::show_dialog(leads, cx, Dialog::Filter(b));
    Vec::new()
}

/// Whether the field descriptors of `search` are on their way.
pub(crate) fn fields_loading(requests: &Requests, search: &str) -> bool {
    in_flight(
        requests,
        |p| matches!(p, Purpose::Descriptors(s) if s == search),
    )
}

/// Field descriptors arrived.
pub(crate) fn on_descriptors(
    leads: &mut LeadsModel,
    search: &str,
    result: Result<EnrichmentResponse, ApiError>,
) -> Vec<Cmd> {
    if let Ok(e) = &result
        && !e.result.result_id.is_empty()
    {
        super::facts::remember(
            leads,
            search,
            &e.result.result_id,
            &e.enrichment_profile.person,
        );
    }
    let builder = match leads.dialog.as_mut() {
        Some(Dialog::Filter(b)) if b.search == search => Some(b),
        _ => None,
    };
    match result {
        Ok(e) => {
            if let Some(b) = builder {
                b.descriptors = e.fields.clone();
                if e.fields.is_empty() {
                    b.error = Some("the service listed no filterable fields".into());
                } else if b.error.as_deref() == Some(NO_FIELDS) {
                    b.error = None;
                }
            }
            if !e.fields.is_empty() {
                leads.descriptors.insert(search.to_owned(), e.fields);
            }
        }
        Err(e) => {
            if let Some(b) = builder {
                b.error = Some(format!(
                    "could not load the fields ({}); text search still works",
                    super::error_text(&e)
                ));
            }
        }
    }
    Vec::new()
}

/// What a key in the builder asks the pane to do.
#[derive(Debug, Clone, PartialEq)]
pub enum FilterDone {
    /// Show the results of this filter (the builder closes).
    Apply(Filter),
    /// Close, keeping the edits for the next `/` on this search.
    Park,
}

impl Builder {
    /// A key in the builder, edited in place.
    pub fn key(&mut self, key: KeyEvent) -> Outcome<FilterDone> {
        if self.picker.is_some() {
            self.picker_key(key);
            return Outcome::Keep;
        }
        self.note = None;
        if fixed_keys::CLOSE.matches(&key) {
            // Closing never drops what was typed: the edits wait for the
            // next `/` on this search.
            return if self.edited() {
                Outcome::Act(FilterDone::Park)
            } else {
                Outcome::Close
            };
        }
        if fixed_keys::SUBMIT.matches(&key) {
            return self.apply();
        }
        if fixed_keys::ADD_ROW.matches(&key) {
            self.add_row();
        } else if fixed_keys::REMOVE_ROW.matches(&key) {
            if let Focus::Row(i, _) = self.focus {
                self.remove_row(i);
            }
        } else if fixed_keys::NEXT.matches(&key) {
            self.step(true);
        } else if fixed_keys::PREV.matches(&key) {
            self.step(false);
        } else if key.code == KeyCode::Up {
            self.vertical(false);
        } else if key.code == KeyCode::Down {
            self.vertical(true);
        } else if fixed_keys::CONFIRM.matches(&key) {
            match self.focus {
                Focus::Row(i, Part::Path) => self.open_picker(i),
                _ => return self.apply(),
            }
        } else {
            self.edit(key);
        }
        Outcome::Keep
    }

    /// Builds the filter: sent when it is valid, else the rows say why.
    fn apply(&mut self) -> Outcome<FilterDone> {
        match self.build() {
            Some(filter) => Outcome::Act(FilterDone::Apply(filter)),
            None => Outcome::Keep,
        }
    }

    /// A key in the open path picker: moving, typing to narrow, picking.
    fn picker_key(&mut self, key: KeyEvent) {
        let Some(p) = self.picker.as_mut() else {
            return;
        };
        let descriptors = &self.descriptors;
        match p.key(key, |p| matches(p, descriptors).len()) {
            PickerKey::Keep => {}
            PickerKey::Close => self.picker = None,
            PickerKey::Pick(at) => {
                let row = p.of;
                let picked = matches(p, descriptors)
                    .get(at)
                    .and_then(|i| descriptors.get(*i))
                    .cloned();
                self.picker = None;
                if let Some(d) = picked {
                    if let Some(r) = self.rows.get_mut(row) {
                        r.set_field(&d);
                    }
                    self.focus = Focus::Row(row, Part::Op);
                }
            }
        }
    }

    /// Any other key: edits the focused part.
    fn edit(&mut self, key: KeyEvent) {
        let remove_hint = || format!("{} removes this predicate", fixed_keys::REMOVE_ROW.label);
        match self.focus {
            Focus::Q => {
                if crate::app::form::edit_key(&mut self.q, key) {
                    self.error = None;
                    self.live = true;
                }
            }
            Focus::Row(i, Part::Path) => match key.code {
                KeyCode::Char(' ') => self.open_picker(i),
                KeyCode::Right => self.cycle_field(i, true),
                KeyCode::Left => self.cycle_field(i, false),
                // Removing a row (and its typed value) is its own key only.
                KeyCode::Delete | KeyCode::Backspace => self.note = Some(remove_hint()),
                _ => {}
            },
            Focus::Row(i, Part::Op) => {
                let Some(r) = self.rows.get_mut(i) else {
                    return;
                };
                let n = r.ops.len().max(1);
                match key.code {
                    KeyCode::Right | KeyCode::Char(' ') => r.op = (r.op + 1) % n,
                    KeyCode::Left => r.op = (r.op + n - 1) % n,
                    KeyCode::Delete | KeyCode::Backspace => self.note = Some(remove_hint()),
                    _ => {}
                }
            }
            Focus::Row(i, Part::Value) => {
                let Some(r) = self.rows.get_mut(i) else {
                    return;
                };
                if r.value_type == ValueType::Boolean {
                    if matches!(
                        key.code,
                        KeyCode::Char(' ') | KeyCode::Left | KeyCode::Right
                    ) {
                        r.on = !r.on;
                    }
                } else if crate::app::form::edit_key(&mut r.value, key) {
                    r.error = None;
                }
            }
        }
    }
}

/// The text typed in the builder, applied a moment after it changed (with
/// the predicates already applied): the results narrow as it is typed.
pub(crate) fn apply_live(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(Dialog::Filter(b)) = leads.dialog.as_mut() else {
        return Vec::new();
    };
    b.live = false;
    let q = b.q.lines().join(" ").trim().to_owned();
    if q.chars().count() > MAX_Q {
        // Said on the row when Enter builds the filter.
        return Vec::new();
    }
    b.base.q.clone_from(&q);
    let search = b.search.clone();
    let Some(o) = leads.open.as_ref().filter(|o| o.search.search_id == search) else {
        return Vec::new();
    };
    let filter = Filter {
        q,
        predicates: o.filter.predicates.clone(),
    };
    search::apply_filter(leads, cx, filter)
}

/// Carries out what the builder asked for, with the whole pane.
pub(crate) fn act(leads: &mut LeadsModel, cx: &mut Ctx<'_>, done: FilterDone) -> Vec<Cmd> {
    let Some(Dialog::Filter(b)) = leads.dialog.take() else {
        return Vec::new();
    };
    match done {
        FilterDone::Apply(filter) => {
            leads.filter_edits.remove(&b.search);
            if leads.open_id() != Some(b.search.as_str()) {
                return Vec::new();
            }
            search::apply_filter(leads, cx, filter)
        }
        FilterDone::Park => {
            let mut b = b;
            b.error = None;
            leads.filter_edits.insert(b.search.clone(), b);
            let slash = cx.keymap.key_label(Action::Filter);
            cx.notify(
                Level::Info,
                "Filter not applied",
                &format!("your edits are kept: {slash} brings them back"),
            );
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(path: &str, t: ValueType, ops: &[Operator]) -> FieldDescriptor {
        FieldDescriptor {
            path: path.into(),
            label: path.into(),
            namespace: "person".into(),
            group: "contact".into(),
            value_type: t,
            operators: ops.to_vec(),
            coverage_count: 10,
        }
    }

    #[test]
    fn values_are_typed_per_field() {
        let ds = vec![
            desc("person.city", ValueType::String, &[Operator::Contains]),
            desc("company.size", ValueType::Number, &[]),
            desc("person.open", ValueType::Boolean, &[]),
        ];
        let mut b = Builder::new("s", &Filter::default(), &ds);
        for (i, d) in ds.iter().enumerate() {
            b.rows.push(Row::default());
            b.rows[i].set_field(d);
        }
        b.rows[0].value = text_box("Berlin");
        b.rows[1].value = text_box("lots");
        assert!(b.build().is_none());
        assert_eq!(b.rows[1].error.as_deref(), Some("a number, e.g. 50 or 2.5"));
        assert_eq!(b.focus, Focus::Row(1, Part::Value));
        b.rows[1].value = text_box("250");
        b.rows[1].op = 1;
        let f = b.build().expect("valid");
        assert_eq!(f.predicates.len(), 3);
        assert_eq!(f.predicates[1].operator, Operator::Gt);
        assert_eq!(f.predicates[1].value, PredicateValue::Number(250.0));
        assert_eq!(f.predicates[2].value, PredicateValue::Bool(true));
        assert_eq!(operators(&ds[2]), vec![Operator::Eq]);
    }

    #[test]
    fn at_most_five_predicates() {
        let ds = vec![desc("a", ValueType::String, &[])];
        let mut b = Builder::new("s", &Filter::default(), &ds);
        for _ in 0..5 {
            assert!(b.add_row());
            b.picker = None;
        }
        assert!(!b.add_row());
        assert_eq!(b.rows.len(), 5);
    }
}
