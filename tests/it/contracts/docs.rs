//! The documentation's links: every relative link in README.md, CONTRIBUTING.md and docs/ names a
//! file that exists, and every `#anchor` a heading of that file (GitHub's heading ids).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn documentation_pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The text outside fenced code blocks and inline code spans, where links live.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut in_code = false;
        for ch in line.chars() {
            if ch == '`' {
                in_code = !in_code;
                out.push('`');
            } else if !in_code {
                out.push(ch);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of `[text](target)` links.
fn link_targets(markdown: &str) -> Vec<String> {
    let text = prose(markdown);
    let mut targets = Vec::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(')') else { break };
        targets.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    targets
}

/// GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens.
fn heading_id(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn heading_ids(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut ids = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            ids.push(heading_id(line.trim_start_matches('#')));
        }
    }
    ids
}

fn broken_links(page: &Path) -> Vec<String> {
    let markdown = std::fs::read_to_string(page).unwrap();
    let mut broken = Vec::new();
    for target in link_targets(&markdown) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((file, anchor)) => (file, Some(anchor)),
            None => (target.as_str(), None),
        };
        let linked = if file.is_empty() { page.to_path_buf() } else { page.parent().unwrap().join(file) };
        if !linked.exists() {
            broken.push(format!("{}: {target} (no such file)", page.display()));
            continue;
        }
        if let Some(anchor) = anchor {
            let text = std::fs::read_to_string(&linked).unwrap_or_default();
            if !heading_ids(&text).iter().any(|id| id == anchor) {
                broken.push(format!("{}: {target} (no such heading in {})", page.display(), linked.display()));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_resolves() {
    let broken: Vec<String> = documentation_pages().iter().flat_map(|page| broken_links(page)).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_a_front_page_that_links_every_manual_page() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.lines().count() <= 300,
        "README.md is {} lines; the manual belongs in docs/",
        readme.lines().count()
    );
    for page in documentation_pages().iter().filter(|page| page.parent() == Some(&root().join("docs"))) {
        let name = page.file_name().unwrap().to_string_lossy();
        assert!(readme.contains(&format!("(docs/{name}")), "README.md does not link docs/{name}");
    }
}

#[test]
fn the_link_checker_sees_a_broken_link_and_a_missing_heading() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("other.md"), "# A heading: `with code`\n").unwrap();
    let page = dir.path().join("page.md");
    std::fs::write(
        &page,
        "[ok](other.md#a-heading-with-code) [gone](missing.md) [bad](other.md#nope) `[code](ignored.md)`\n",
    )
    .unwrap();
    let broken = broken_links(&page);
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].contains("missing.md") && broken[1].contains("#nope"), "{broken:?}");
}

/// The first cells of the provider table of docs/sign-verify.md (the one whose header starts
/// `| provider (`--scheme`) |`).
fn provider_table_names(page: &str) -> Vec<String> {
    let mut rows = page.lines().skip_while(|line| !line.starts_with("| provider (`--scheme`) |")).skip(2);
    let mut names = Vec::new();
    while let Some(row) = rows.next().filter(|line| line.starts_with('|')) {
        let first = row.trim_start_matches('|').split(" | ").next().unwrap_or_default();
        names.extend(first.split('`').skip(1).step_by(2).map(str::to_string));
    }
    names
}

#[test]
fn the_provider_table_of_sign_verify_has_a_row_for_every_scheme_webhook_schemes_lists() {
    let page = std::fs::read_to_string(root().join("docs/sign-verify.md")).unwrap();
    let named = provider_table_names(&page);
    let listed = crate::support::run::Run::webhook(["schemes"]).format_json().expect_exit(0).json();
    let missing: Vec<&str> = listed["schemes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|scheme| scheme["name"].as_str().unwrap())
        .filter(|name| !named.iter().any(|cell| cell == name))
        .collect();
    assert!(missing.is_empty(), "docs/sign-verify.md's provider table has no row for: {missing:?}");
    // The reader sees names, not just a table that happens to mention them elsewhere.
    assert_eq!(provider_table_names("| provider (`--scheme`) | x |\n| --- | --- |\n| A (`a`) | `b` |\n"), ["a"]);
}
