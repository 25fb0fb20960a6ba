public enum SharingPlaceholder {}
