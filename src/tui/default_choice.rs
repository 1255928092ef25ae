//! What the viewer opens on: [`crate::session::opening::Opening`] (the animation and skins
//! the user named, else the defaults), said in the status line.

use crate::session::opening::Opening;
use crate::tui::app::App;

/// Plays the chosen animation with the chosen skins on `app` and says which in the status
/// line. Unknown names are an error listing the choices (before any terminal is touched).
pub fn start(
    app: &mut App,
    animation: Option<&str>,
    skins: Option<&[String]>,
) -> Result<(), String> {
    let data = app.doc.data.clone();
    let opening = Opening::choose(&data, animation, skins).map_err(|e| e.to_string())?;
    if opening.skins.as_slice() != app.session.skins() {
        app.session
            .set_skins(opening.skins.clone())
            .map_err(|e| e.to_string())?;
    }
    if let Some((i, _)) = opening.animation {
        app.play_animation(i);
    }
    let said = opening.describe(&data);
    if said.is_empty() {
        return Ok(());
    }
    // A loader warning stays first: a narrow status line cuts the end.
    let warning = app.message.take().filter(|(_, err)| !*err).map(|(w, _)| w);
    app.note(said.clone());
    if let Some(w) = warning {
        app.message = Some((format!("{w}; {said}"), false));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::offscreen::file_app_with;
    use crate::view_defaults::tests::corpus_bytes as corpus;

    #[test]
    fn mix_and_match_opens_walking_and_dressed_and_says_so() {
        let Some(bytes) = corpus("spine/4.2/mix-and-match-pro.json") else {
            return;
        };
        let app = file_app_with(&bytes, "mix-and-match-pro.json", 0.0, None, None);
        let app = app.expect("opens with the defaults");
        assert_eq!(app.session.skins(), ["full-skins/girl".to_string()]);
        let shown = app
            .selection
            .animation
            .map(|a| app.doc.data.animations[a].name.clone());
        assert_eq!(shown.as_deref(), Some("walk"));
        let (msg, err) = app.message.clone().expect("a note");
        assert!(!err);
        assert!(
            msg.contains("opened on walk") && msg.contains("skin full-skins/girl"),
            "{msg}"
        );
    }

    #[test]
    fn named_choices_win_and_unknown_names_list_the_choices() {
        let Some(bytes) = corpus("spine/4.2/mix-and-match-pro.json") else {
            return;
        };
        let skins = ["skin-base".to_string(), "eyes/violet".to_string()];
        let app = file_app_with(&bytes, "m.json", 0.0, Some("dance"), Some(&skins));
        let mut app = app.expect("opens with the named choices");
        assert_eq!(app.session.skins(), skins);
        let e = start(&mut app, Some("fly"), None).unwrap_err();
        assert!(
            e.starts_with(
                "--animation: no animation \"fly\"; the animations are: aware, blink, dance"
            ),
            "{e}"
        );
        let e = start(&mut app, None, Some(&["nope".to_string()])).unwrap_err();
        assert!(
            e.starts_with("--skin: no skin \"nope\"; the skins are: default, skin-base"),
            "{e}"
        );
    }
}
