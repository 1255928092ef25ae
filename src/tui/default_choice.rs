//! What the viewer opens on: the animation and skins the user named (`--animation`,
//! `--skin`), else [`crate::view_defaults`]' choice, said in the status line.

use crate::tui::app::App;
use crate::view_defaults::{self, AnimationReason};

/// Plays the chosen animation with the chosen skins on `app` and says which in the status
/// line. Unknown names are an error listing the choices (before any terminal is touched).
pub fn start(
    app: &mut App,
    animation: Option<&str>,
    skins: Option<&[String]>,
) -> Result<(), String> {
    let data = app.doc.data.clone();
    let anim = match animation {
        Some(name) => Some((
            view_defaults::animation_by_name(&data, name)
                .map_err(|e| format!("--animation: {e}"))?,
            AnimationReason::Named,
        )),
        None => view_defaults::default_animation(&data),
    };
    let (skins, skin_named) = match skins {
        Some(names) => (
            view_defaults::skins_by_name(&data, names).map_err(|e| format!("--skin: {e}"))?,
            true,
        ),
        None => (view_defaults::default_skins(&data), false),
    };
    if skins.as_slice() != app.session.skins() {
        app.session.set_skins(skins)?;
    }
    if let Some((i, _)) = anim {
        app.play_animation(i);
    }
    // Short: the status line keeps its time and file segments beside it at 80 columns.
    let mut said = match anim {
        Some((i, AnimationReason::Named)) => format!(
            "opened on {}",
            crate::text::sanitize(&data.animations[i].name)
        ),
        Some((i, why)) => format!(
            "opened on {} ({})",
            crate::text::sanitize(&data.animations[i].name),
            why.describe()
        ),
        None => String::new(),
    };
    let on = app.session.skins();
    if !on.is_empty() && !skin_named {
        said.push_str(&format!(
            "{}skin {}",
            if said.is_empty() { "" } else { ", " },
            crate::text::sanitize(&on.join(" + "))
        ));
    }
    // Nothing was chosen when the file has one animation and the default skin: no note.
    if animation.is_none() && data.animations.len() < 2 && (on.is_empty() || skin_named) {
        return Ok(());
    }
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
    use crate::tui::offscreen::file_app;
    use crate::view_defaults::tests::corpus_bytes as corpus;

    #[test]
    fn mix_and_match_opens_walking_and_dressed_and_says_so() {
        let Some(bytes) = corpus("spine/4.2/mix-and-match-pro.json") else {
            return;
        };
        let mut app = file_app(&bytes, "mix-and-match-pro.json", 0.0).expect("opens");
        start(&mut app, None, None).expect("defaults");
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
        let mut app = file_app(&bytes, "mix-and-match-pro.json", 0.0).expect("opens");
        let skins = ["skin-base".to_string(), "eyes/violet".to_string()];
        start(&mut app, Some("dance"), Some(&skins)).expect("named");
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
