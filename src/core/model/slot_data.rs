use crate::core::color::Color;

/// How a slot's attachment is composited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BlendMode {
    #[default]
    Normal,
    Additive,
    Multiply,
    Screen,
}

impl BlendMode {
    /// The name used by Spine's JSON export.
    pub fn name(self) -> &'static str {
        match self {
            BlendMode::Normal => "normal",
            BlendMode::Additive => "additive",
            BlendMode::Multiply => "multiply",
            BlendMode::Screen => "screen",
        }
    }
}

/// A slot: a place in the draw order, attached to a bone, that shows one attachment.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotData {
    pub name: String,
    pub bone: usize,
    pub color: Color,
    /// Dark color for two-color tinting (alpha unused).
    pub dark: Option<Color>,
    /// Color offset added after multiplying by `color` (DragonBones color transforms), as a
    /// fraction of full intensity per channel (-1..1); `None` when the format has none.
    pub offset: Option<Color>,
    /// Setup attachment name, looked up in the skin.
    pub attachment: Option<String>,
    pub blend: BlendMode,
}
